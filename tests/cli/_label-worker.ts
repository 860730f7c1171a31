/**
 * Child process for the concurrent-append test: runs `pi-session label` and `pi-session name`
 * on FILE, COUNT times in turn, each as a fresh CLI run (a new `SessionManager`, as separate
 * invocations would). Exits 0 when every run did.
 *
 *   <runtime> _label-worker.ts FILE ENTRY_ID PREFIX COUNT
 */
import { run } from "../../src/cli/run.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { harnessDeps } from "./_harness.ts";

const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
const [file, entryId, prefix, countText] = args;
const fs = detectFileSystem();
const out = { stdout: "", stderr: "" };
let failures = 0;
for (let i = 0; i < Number(countText); i++) {
  const argv = i % 2 === 0 ? ["label", file, entryId, `${prefix}-${i}`] : ["name", file, `${prefix}-${i}`];
  if ((await run(argv, harnessDeps({ fs }, out))) !== 0) failures++;
}
if (failures > 0) console.error(out.stderr);
console.log(JSON.stringify({ failures }));
(globalThis as unknown as { process?: { exitCode?: number } }).process!.exitCode = failures > 0 ? 1 : 0;
