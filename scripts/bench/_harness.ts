/**
 * Shared by the bench case scripts (`scripts/bench/<case>.ts`), each of which runs in a fresh child
 * process under `/usr/bin/time` (see `scripts/bench.ts`). A case script imports what it needs first,
 * then hands the work to `measure`, which times only the work and prints one machine-readable line:
 *
 *   BENCH_RESULT {"ms": 123.4, "check": "..."}
 *
 * or, when the implementation under test cannot be loaded (a module not written yet):
 *
 *   BENCH_SKIP <reason>
 */
import { createHash } from "node:crypto";
import process from "node:process";

export interface CaseArgs {
  impl: string;
  /** Arguments that are not flags, then everything after a `--` as given. */
  positional: string[];
  /** Also compute a digest of the result (outside the timed section) so rows can be compared. */
  verify: boolean;
  flags: Map<string, string>;
}

export function parseCaseArgs(argv = process.argv.slice(2)): CaseArgs {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  let impl = "";
  let verify = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (a === "--impl") impl = argv[++i];
    else if (a === "--verify") verify = true;
    else if (a.startsWith("--")) flags.set(a.slice(2), argv[++i]);
    else positional.push(a);
  }
  if (!impl) throw new Error("missing --impl");
  return { impl, positional, verify, flags };
}

/** Prints the skip line and exits successfully: the runner shows the row as skipped with `reason`. */
export function skip(reason: string): never {
  console.log(`BENCH_SKIP ${reason.replace(/\s+/g, " ").slice(0, 300)}`);
  process.exit(0);
}

/** Imports a module of ours, or skips the row when it does not exist (yet) or fails to load. */
export async function importOrSkip<T>(specifier: string, what: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    skip(`${what}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
}

/**
 * Runs `work` once, timing it with performance.now(), keeps its result alive until the line is
 * printed, and (with `verify`) adds `check(result)` computed after the clock stopped.
 */
export async function measure<T>(
  args: CaseArgs,
  work: () => T | Promise<T>,
  check?: (result: T) => string,
): Promise<void> {
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const out: Record<string, unknown> = { ms };
  if (args.verify && check) out.check = check(result);
  console.log(`BENCH_RESULT ${JSON.stringify(out)}`);
}

/** JSON with object keys sorted, so equal values from different builders give equal text. */
function canonical(value: unknown, hash: ReturnType<typeof createHash>): void {
  if (value === null || typeof value !== "object") {
    hash.update(value === undefined ? "null" : JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    hash.update("[");
    value.forEach((v, i) => {
      if (i) hash.update(",");
      canonical(v, hash);
    });
    hash.update("]");
    return;
  }
  hash.update("{");
  let first = true;
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    if (!first) hash.update(",");
    first = false;
    hash.update(`${JSON.stringify(key)}:`);
    canonical(v, hash);
  }
  hash.update("}");
}

/** A short digest of `value` that ignores key order and `undefined` properties. */
export function digest(value: unknown): string {
  const hash = createHash("sha256");
  canonical(value, hash);
  return hash.digest("hex").slice(0, 16);
}
