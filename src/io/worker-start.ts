/**
 * Where a worker module is, for every way this code runs: `workerStart("export/line-scan-worker")`
 * gives the `new Worker` arguments of src/export/line-scan-worker.ts, or null where there is none.
 * - Bun's executable (scripts/compile.ts bundles each worker as an entry point of its own):
 *   `export/line-scan-worker.js` in the folder of the chunks.
 * - The sources under Deno or Bun, which run TypeScript in a worker themselves: the .ts file.
 * - The sources under Node (with tsx, as the tests and the bench run): tsx's loader does not reach
 *   a worker thread (Node 20), so the worker starts `ts-worker.mjs`, which registers tsx in its
 *   thread and imports the .ts file named in its argv.
 * - Anywhere else (the npm package's bundle, the library built to .js): null, there is no worker
 *   module; the caller does the work on its own thread.
 * @module
 */

/** The arguments of `new Worker(url, { argv })`. */
export interface WorkerStart {
  url: URL;
  argv: string[];
  /**
   * Whether the worker loads a TypeScript loader before its module (tsx under Node): its start
   * then takes 0.3–2 s of CPU on another core (tsx's modules twice, its loader's thread, each
   * module through it), where Bun's executable starts one in milliseconds.
   */
  throughLoader: boolean;
}

/**
 * @param name the worker's module under src/, without the extension: "query/skim-worker".
 * @param here where this module is (tests give another place).
 *
 * @example
 * ```ts
 * import { Worker } from "node:worker_threads";
 * import { workerStart } from "./worker-start.ts";
 *
 * const start = workerStart("export/line-scan-worker");
 * const worker = start && new Worker(start.url, { argv: start.argv, workerData: {} });
 * await worker?.terminate();
 * ```
 */
export function workerStart(name: string, here: string = import.meta.url): WorkerStart | null {
  if (here.includes("/$bunfs/")) return { url: new URL(`./${name}.js`, here), argv: [], throughLoader: false };
  if (!here.endsWith(".ts")) return null;
  const source = new URL(`../${name}.ts`, here);
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
  if (runtime.Bun !== undefined || runtime.Deno !== undefined) return { url: source, argv: [], throughLoader: false };
  return { url: new URL("./ts-worker.mjs", here), argv: [source.href], throughLoader: true };
}
