/**
 * What shell completion knows about the CLI, read from the commander program itself (so
 * the scripts never drift from the commands): commands, flags, what each value and argument is.
 * @module
 */
import type { Argument, Command, Option } from "commander";

/** How to complete the value of a flag. */
export type ValueKind = "none" | "dir" | "file" | "choices";

/** One flag: its names, whether it takes a value, and how to complete that value. */
export interface FlagModel {
  /** `-a` */
  short?: string;
  /** `--all` */
  long?: string;
  takesValue: boolean;
  value: ValueKind;
  choices: string[];
  description: string;
}

/** How to complete a positional argument. */
export type ArgKind = "session" | "file" | "shell" | "command" | "none";

/** One positional argument. */
export interface ArgModel {
  kind: ArgKind;
  variadic: boolean;
}

/** One visible command. */
export interface CommandModel {
  name: string;
  description: string;
  flags: FlagModel[];
  args: ArgModel[];
}

/** Everything a completion script is written from. */
export interface CompletionModel {
  program: string;
  /** Flags of the program itself; commander accepts them after the command too. */
  globalFlags: FlagModel[];
  commands: CommandModel[];
  /** The shells `completions` can write a script for. */
  shells: string[];
}

// Kinds follow the placeholder names the command specs use (`<ref>`, `<dir>`, `[path]`…).
const ARG_KINDS: Record<string, ArgKind> = { ref: "session", target: "session", session: "session", path: "file", file: "file", shell: "shell", command: "command", "old-cwd": "file", "new-cwd": "file" };
const VALUE_KINDS: Record<string, ValueKind> = { dir: "dir", directory: "dir", file: "file", path: "file" };

const SAFE = /^[A-Za-z0-9@%+=:,./_-]+$/;

/** Names end up unquoted in shell scripts; anything unusual is a bug in a command spec. */
function safe(word: string): string {
  if (!SAFE.test(word)) throw new Error(`Cannot complete "${word}": only letters, digits and @%+=:,./_- are allowed`);
  return word;
}

function flagModel(option: Option): FlagModel {
  const takesValue = option.required || option.optional;
  const placeholder = /[<[]([\w-]+)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1] ?? "";
  const choices = (option.argChoices ?? []).map(safe);
  const value: ValueKind = !takesValue ? "none" : choices.length > 0 ? "choices" : VALUE_KINDS[placeholder] ?? "none";
  return {
    ...(option.short && { short: safe(option.short) }),
    ...(option.long && { long: safe(option.long) }),
    takesValue,
    value,
    choices,
    description: option.description,
  };
}

function argModel(argument: Argument): ArgModel {
  return { kind: ARG_KINDS[argument.name()] ?? "none", variadic: argument.variadic };
}

/**
 * The completion model of `program`: its visible commands (hidden ones left out) and options.
 *
 * @example
 * ```ts
 * // const model = completionModel(buildProgram(deps, () => {}, await loadCommands()), ["bash", "zsh", "fish"]);
 * // model.commands.map((c) => c.name) -> ["list", "recent", …, "help"]
 * ```
 */
export function completionModel(program: Command, shells: string[]): CompletionModel {
  const help = program.createHelp();
  return {
    program: safe(program.name()),
    globalFlags: help.visibleOptions(program).map(flagModel),
    commands: help.visibleCommands(program).map((command) => ({
      name: safe(command.name()),
      description: command.description(),
      // -h/--help is a global flag already.
      flags: help.visibleOptions(command).filter((o) => o.long !== "--help").map(flagModel),
      args: command.registeredArguments.map(argModel),
    })),
    shells: shells.map(safe),
  };
}

/** `-a --all` of a flag. */
export function flagNames(flag: FlagModel): string[] {
  return [flag.short, flag.long].filter((n): n is string => n !== undefined);
}

/** The words the scripts use for positional kinds: `session`, `none`, `session...` for a variadic one. */
export function argWords(command: CommandModel): string[] {
  return command.args.map((a) => a.kind + (a.variadic ? "..." : ""));
}
