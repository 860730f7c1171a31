/**
 * Bench case `export`: the HTML export (redaction on, the default) of one session file, as the
 * CLI runs it, written to a temp file. SPEC/issue target: at most 2× the time of `context` on
 * the same file (the `ours` row of the `context` case), peak RSS at most 2× the file size.
 *
 *   node --import tsx scripts/bench/export.ts --impl html|markdown|ndjson FILE [--verify]
 *
 * Imports happen before the clock starts; only the work is timed.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { measure, parseCaseArgs } from "./_harness.ts";
import { run } from "../../src/cli/run.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { processEnvironment } from "../../src/io/environment.ts";

const args = parseCaseArgs();
const [file] = args.positional;
if (!file) throw new Error("usage: export.ts --impl html|markdown|ndjson FILE");
const dir = mkdtempSync(join(tmpdir(), "pi-session-bench-export-"));
const out = join(dir, `out.${args.impl}`);
let stderr = "";
await measure(args, async () => {
  const code = await run(["export", file, "--format", args.impl, "-o", out], {
    fs: nodeFileSystem,
    storage: processEnvironment(),
    stdout: () => {},
    stderr: (text) => void (stderr += text),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    now: () => new Date(),
  });
  if (code !== 0) throw new Error(`export failed (${code}): ${stderr}`);
  return statSync(out).size;
}, (size) => `${size} bytes`);
rmSync(dir, { recursive: true, force: true });
process.exitCode = 0;
