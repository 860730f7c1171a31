/**
 * What `migrate` does with lines pi appended while it rewrote a file: `safeRewrite` carries them
 * over as written. Lines in the old format (an old pi still writing to the file) are then
 * migrated like the rest, in another safe rewrite; anything else stays as written.
 * @module
 */
import type { FileSystem } from "../io/file-system.ts";
import { countLines } from "../session/rewrite-steps.ts";
import { type CarriedOver, safeRewrite } from "../session/safe-rewrite.ts";
import { planMigration } from "./migrate-file.ts";

/** A migration that was written: the bytes it read, the bytes it wrote, what it carried over. */
export interface WrittenMigration {
  original: Uint8Array;
  written: Uint8Array;
  carried: CarriedOver;
  /** How many lines the migration dropped (with `--force`). */
  lost: number;
}

/** Lines carried over, and how many of them were migrated afterwards. */
export interface CarriedLines {
  lines: number;
  migrated: number;
  /** Old-format lines that stayed as written. */
  oldLeft: number;
}

/** Passes at most: each may carry over new lines of its own. */
const MAX_PASSES = 3;

/**
 * Migrates the lines at the end of the file that follow what the migration wrote, when all of
 * them are complete old-format entries: the file is planned again as the original plus those
 * lines, and rewritten only if the result begins with exactly the bytes already written (the
 * migration gives earlier lines the same ids whatever follows them), so nothing written before
 * changes. Lines with an id, malformed ones and torn ones stay as they are.
 */
export async function migrateCarried(fs: FileSystem, path: string, real: string, first: WrittenMigration, force: boolean): Promise<CarriedLines> {
  let { original, written, carried } = first;
  let lines = carried.lines;
  let migrated = 0;
  for (let pass = 0; pass < MAX_PASSES && oldFormatLines(carried.bytes) > 0; pass++) {
    const outcome = await safeRewrite(fs, real, (current) => {
      const keep = { kind: "keep" as const, detail: undefined };
      if (!startsWith(current, written)) return keep;
      const tail = current.subarray(written.length);
      if (tail.length === 0 || tail[tail.length - 1] !== 0x0a || oldFormatLines(tail) !== countLines(tail)) return keep;
      const whole = concat(original, tail);
      const plan = planMigration(path, whole, force);
      if (plan.kind !== "rewrite" || plan.lost.length !== first.lost || !startsWith(plan.bytes, written)) return keep;
      return { kind: "write", bytes: plan.bytes, detail: { whole, bytes: plan.bytes, lines: countLines(tail) } };
    });
    if (!outcome.written || outcome.detail === undefined) break;
    migrated += outcome.detail.lines;
    ({ whole: original, bytes: written } = outcome.detail);
    carried = outcome.carried;
    lines += carried.lines;
  }
  return { lines, migrated, oldLeft: oldFormatLines(carried.bytes) };
}

/** Lines carried over and left as written (a streamed migration does not migrate them). */
export function unmigratedCarried(carried: CarriedOver): CarriedLines {
  return { lines: carried.lines, migrated: 0, oldLeft: oldFormatLines(carried.bytes) };
}

/** Says how many appended lines were carried over, how many were migrated, and old ones left. */
export function carriedNote(carried: CarriedLines): string | undefined {
  if (carried.lines === 0) return undefined;
  const lines = carried.lines === 1 ? "1 line" : `${carried.lines} lines`;
  const migrated = carried.migrated === 0 ? "as written" : `${carried.migrated} of them in the old format, migrated like the rest`;
  const left = carried.oldLeft === 0 ? "" : `, ${carried.oldLeft} left in the old format (no id): a pi older than v3 files is still writing to it`;
  return `carried over ${lines} appended while it ran, ${migrated}${left}`;
}

/** Lines that parse as an object without a string `id` (entries of a version 1 writer). */
function oldFormatLines(bytes: Uint8Array): number {
  let count = 0;
  for (const line of new TextDecoder().decode(bytes).split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line);
      if (value !== null && typeof value === "object" && !Array.isArray(value) && typeof value.id !== "string") count++;
    } catch {
      // Not JSON: `check` reports it; it is no old-format entry.
    }
  }
  return count;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const all = new Uint8Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}
