/**
 * Fingerprints of a folder of sessions, kept so that a full check need not load what it would
 * only compare: `namesDigest` of the names a folder was listed with (the SQLite store keeps it
 * beside the names, folder-check.ts), and `stampsDigest` of its files' names, sizes and mtimes
 * when its records were last found to be exactly those files (the section's coverage,
 * covered-check.ts). Each is 64 bits (`Fingerprint` of hash-bytes.ts): two different folders
 * share one with odds of about one in 10^19.
 * @module
 */
import { Fingerprint } from "../core/digest/hash-bytes.ts";
import type { FileStat } from "../io/file-system.ts";

/**
 * The fingerprint of a folder's names in the order given (a folder listed again unchanged gives
 * them in the same order).
 *
 * @example
 * ```ts
 * namesDigest(["a.jsonl", "b.jsonl"]) !== namesDigest(["b.jsonl", "a.jsonl"]); // true
 * ```
 */
export function namesDigest(names: readonly string[]): string {
  const print = new Fingerprint().number(names.length);
  for (const name of names) print.text(name);
  return print.digest();
}

/**
 * The fingerprint of a folder's files (`names`, each with its stat in `stats`), or undefined
 * when one of them is not a file: what a full check compares with the fingerprint kept in the
 * folder's coverage.
 *
 * @example
 * ```ts
 * const stat = { isFile: true, isDirectory: false, size: 10, mtimeMs: 1.5 };
 * stampsDigest(["a.jsonl"], [stat]) !== stampsDigest(["a.jsonl"], [{ ...stat, mtimeMs: 2 }]); // true
 * ```
 */
export function stampsDigest(names: readonly string[], stats: readonly (FileStat | null)[]): string | undefined {
  const print = new Fingerprint().number(names.length);
  for (let i = 0; i < names.length; i++) {
    const stat = stats[i];
    if (!stat?.isFile) return undefined;
    print.text(names[i]).number(stat.size).number(stat.mtimeMs);
  }
  return print.digest();
}
