/**
 * The CLI core: `run(argv, deps)` parses arguments, runs one command and returns its exit
 * code. It never touches the process; `main.ts` does.
 * @module
 */
import { Command, CommanderError, Option } from "commander";
import { VERSION_LINE } from "../version.ts";
import type { CommandSpec } from "./command.ts";
import type { CommandSpec as Spec } from "./command.ts";
import { COMMAND_LOADERS, loadCommands } from "./commands/mod.ts";
import { CliContext, type GlobalOptions } from "./context.ts";
import type { CliDeps } from "./deps.ts";
import { describeError } from "./errors.ts";
import { COLOR_WHEN } from "./output/color-choice.ts";

function addCommand(program: Command, spec: CommandSpec, deps: CliDeps, setExit: (code: number) => void): void {
  const command = program.command(spec.name, { hidden: spec.hidden }).description(spec.summary);
  for (const arg of spec.args ?? []) command.argument(arg);
  for (const option of spec.options ?? []) {
    const o = new Option(option.flags, option.description);
    if (option.choices) o.choices(option.choices);
    if (option.default !== undefined) o.default(option.default);
    command.addOption(o);
  }
  const notes = spec.notes ? "\n" + spec.notes.join("\n") + "\n" : "";
  command.addHelpText("after", notes + "\nExamples:\n" + spec.examples.map((e) => `  $ ${e}`).join("\n") + "\n");
  command.action(async (...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    const options = self.opts();
    const args = received.slice(0, -2).flatMap((a) => (Array.isArray(a) ? a : a === undefined ? [] : [a])) as string[];
    const globals = program.opts() as GlobalOptions;
    // Loaded only to page: measuring text loads string-width, whose set-up (Intl.Segmenter) takes 3 ms.
    const paging = spec.paged && globals.pager !== false && deps.stdoutIsTTY && deps.page ? await import("./pager.ts") : undefined;
    const pager = paging?.pagerCommand(deps.storage.env);
    const use = { checksLater: spec.checksLater };
    if (pager === undefined) {
      const ctx = new CliContext(deps, globals, use);
      try {
        setExit(await spec.run(ctx, args, options));
      } finally {
        await ctx.afterCommand();
      }
      return;
    }
    // Held back until the command is done, to know whether it fits on the screen.
    const held: string[] = [];
    const ctx = new CliContext({ ...deps, stdout: (text) => void held.push(text) }, globals, use);
    let paged = false;
    try {
      setExit(await spec.run(ctx, args, options));
      const text = held.join("");
      paged = paging!.tallerThan(text, { columns: ctx.width, rows: deps.rows || 24 }) && await deps.page!(pager, text);
    } finally {
      // A failing command's output comes out before its error, and so does a text no pager showed.
      if (!paged && held.length > 0) deps.stdout(held.join(""));
      await ctx.afterCommand();
    }
  });
}

/** Builds the commander program for `deps`. */
export function buildProgram(deps: CliDeps, setExit: (code: number) => void, commands: readonly Spec[]): Command {
  const program = new Command("pi-session")
    .description("Read, check, navigate, fork and export pi coding agent sessions")
    .version(VERSION_LINE, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "Show help for a command")
    .option("--session-dir <dir>", "session directory (overrides PI_CODING_AGENT_SESSION_DIR and settings)")
    .option("--agent-dir <dir>", "pi agent directory (default $PI_CODING_AGENT_DIR or ~/.pi/agent)")
    .option("--cwd <dir>", "act as if run in this directory")
    .option("--json", "print data as JSON")
    .addOption(new Option("--color <when>", "when to colour output; auto: on a terminal unless NO_COLOR is set, FORCE_COLOR forces it").choices(COLOR_WHEN))
    .option("--no-color", "never colour output (same as --color=never)")
    .option("-q, --quiet", "print no notes on stderr")
    .option("--no-pager", "never page long show, context or tree output (default: $PAGER, else less -R, on a terminal)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr });
  for (const spec of commands) addCommand(program, spec, deps, setExit);
  for (const command of program.commands) command.exitOverride().configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr });
  return program;
}

/** Global flags that take a value: their value is not the command name. */
const VALUE_FLAGS = new Set(["--session-dir", "--agent-dir", "--cwd", "--color"]);

/**
 * The command `argv` runs, as a one-element list, or undefined (load every command) when it
 * names none we know: top-level help, a typo that deserves suggestions.
 */
function commandNamed(argv: readonly string[]): string[] | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (VALUE_FLAGS.has(arg)) {
      i++;
      continue;
    }
    if (arg === "--") return undefined;
    if (arg.startsWith("-")) continue;
    return COMMAND_LOADERS.some(([name]) => name === arg) ? [arg] : undefined;
  }
  return undefined;
}

/**
 * Runs pi-session with `argv` (arguments only, no runtime or script path).
 *
 * @example
 * ```ts
 * // const code = await run(["list", "--json"], deps);
 * ```
 */
export async function run(argv: string[], deps: CliDeps): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(deps, (code) => {
    exitCode = code;
  }, await loadCommands(commandNamed(argv)));
  if (argv.length === 0) {
    deps.stdout(program.helpInformation());
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return 0;
      // commander already printed "error: …"; add what to do.
      deps.stderr("hint: run `pi-session --help` or `pi-session <command> --help`\n");
      return 2;
    }
    const { exitCode: code, lines } = describeError(error);
    deps.stderr(lines.join("\n") + "\n");
    return code;
  }
}
