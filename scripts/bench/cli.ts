/**
 * Bench case script for whole commands: runs one pi-session command in-process, as the executable
 * would (`run(argv, deps)` over the runtime's real file system and environment), with stdout kept.
 *
 *   node --import tsx scripts/bench/cli.ts --impl cli [--verify] -- search flaky --all --json
 *   bun scripts/bench/cli.ts --impl cli -- stats --all --json
 *
 * The command's module is imported before the clock starts, so the time is the command's work:
 * opening the catalog, refreshing it, and answering. The catalog's place and kind come from the
 * environment as for the executable (`XDG_CACHE_HOME`, `PI_SESSION_CATALOG`); the row sets them.
 * The result digest is of the exit code and stdout.
 */
import process from "node:process";
import { digest, importOrSkip, measure, parseCaseArgs } from "./_harness.ts";

const args = parseCaseArgs();
const argv = args.positional;
if (args.impl !== "cli" || argv.length === 0) throw new Error("usage: cli.ts --impl cli [--verify] -- COMMAND ARGS...");

const { run } = await importOrSkip<typeof import("../../src/cli/run.ts")>("../../src/cli/run.ts", "src/cli/run.ts");
const { loadCommands } = await importOrSkip<typeof import("../../src/cli/commands/mod.ts")>("../../src/cli/commands/mod.ts", "src/cli/commands/mod.ts");
const { detectFileSystem } = await importOrSkip<typeof import("../../src/io/mod.ts")>("../../src/io/mod.ts", "src/io/mod.ts");
const { processEnvironment } = await importOrSkip<typeof import("../../src/io/environment.ts")>("../../src/io/environment.ts", "src/io/environment.ts");
await loadCommands([argv[0]]);

let stdout = "";
let stderr = "";
const deps = {
  fs: detectFileSystem(),
  storage: processEnvironment(),
  stdout: (text: string) => void (stdout += text),
  stderr: (text: string) => void (stderr += text),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
  now: () => new Date(),
};

await measure(args, async () => {
  const code = await run(argv, deps);
  // Exit 1 is "ran and found nothing"; anything higher means the row measured a failure.
  if (code > 1) {
    process.stderr.write(stderr);
    throw new Error(`pi-session ${argv.join(" ")} exited with ${code}`);
  }
  return { code, stdout };
}, (result) => `exit ${result.code}, ${result.stdout.length} chars, ${digest(result.stdout)}`);
