/**
 * The fish completion script, written from the completion model: one `complete` line per
 * command and flag, and helper functions that find the command and the argument position.
 * @module
 */
import { argWords, type CompletionModel, type FlagModel, flagNames } from "./model.ts";

/** A fish single-quoted string. */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`).replace(/\s+/g, " ")}'`;
}

function completeFlag(program: string, f: FlagModel, condition?: string): string {
  const parts = [`complete -c ${program}`];
  if (condition) parts.push(`-n ${quote(condition)}`);
  if (f.short) parts.push(`-s ${f.short.slice(1)}`);
  if (f.long) parts.push(`-l ${f.long.slice(2)}`);
  if (f.value === "choices") parts.push(`-x -a ${quote(f.choices.join(" "))}`);
  else if (f.value === "dir") parts.push("-x -a '(__fish_complete_directories)'");
  else if (f.value === "file") parts.push("-r -F");
  else if (f.takesValue) parts.push("-x");
  parts.push(`-d ${quote(f.description)}`);
  return parts.join(" ");
}

/**
 * The script: save it as `~/.config/fish/completions/pi-session.fish`.
 *
 * @example
 * ```ts
 * // fishScript(model).includes("complete -c pi-session") === true
 * ```
 */
export function fishScript(model: CompletionModel): string {
  const p = model.program;
  const fn = `__${p.replace(/\W/g, "_")}`;
  const valueArms = [
    ...model.globalFlags.filter((f) => f.takesValue).flatMap(flagNames).map((n) => `'*:${n}'`),
    ...model.commands.flatMap((c) => c.flags.filter((f) => f.takesValue).flatMap(flagNames).map((n) => `'${c.name}:${n}'`)),
  ];
  const kindArms = model.commands.map((c) => `        case ${c.name}\n            set kinds ${argWords(c).join(" ")}`);
  const lines = [
    `# fish completion for ${p} (written by \`${p} completions fish\`; do not edit)`,
    `# Save it as ~/.config/fish/completions/${p}.fish`,
    "",
    `function ${fn}_takes_value`,
    `    switch "$argv[1]:$argv[2]"`,
    `        case ${valueArms.join(" ") || "''"}`,
    "            return 0",
    "    end",
    "    return 1",
    "end",
    "",
    "# Prints the command (or nothing), the number of arguments before the cursor, and the global options with values.",
    `function ${fn}_state`,
    "    set -l tokens (commandline -opc)",
    "    set -e tokens[1]",
    "    set -l cmd ''",
    "    set -l n 0",
    "    set -l globals",
    "    set -l skip ''",
    "    for t in $tokens",
    "        if test -n \"$skip\"",
    "            contains -- $skip " + model.globalFlags.filter((f) => f.takesValue).flatMap(flagNames).join(" ") + "; and set -a globals $skip $t",
    "            set skip ''",
    `        else if ${fn}_takes_value "$cmd" $t`,
    "            set skip $t",
    "        else if string match -q -- '-*' $t",
    "        else if test -z \"$cmd\"",
    "            set cmd $t",
    "        else",
    "            set n (math $n + 1)",
    "        end",
    "    end",
    "    echo $cmd",
    "    echo $n",
    "    printf '%s\\n' $globals",
    "end",
    "",
    `function ${fn}_no_command`,
    `    test -z (${fn}_state)[1]`,
    "end",
    "",
    `function ${fn}_using`,
    `    test (${fn}_state)[1] = $argv[1]`,
    "end",
    "",
    "# True when the argument under the cursor is of kind $argv[1] (session, file, shell, command).",
    `function ${fn}_wants`,
    "    string match -q -- '-*' (commandline -ct); and return 1",
    `    set -l state (${fn}_state)`,
    "    set -l kinds",
    "    switch \"$state[1]\"",
    ...kindArms,
    "    end",
    "    set -l i (math $state[2] + 1)",
    "    set -l kind none",
    "    if test $i -le (count $kinds)",
    "        set kind $kinds[$i]",
    "    else if test (count $kinds) -gt 0; and string match -q -- '*...' $kinds[-1]",
    "        set kind $kinds[-1]",
    "    end",
    "    test (string replace -- '...' '' $kind) = $argv[1]",
    "end",
    "",
    `function ${fn}_ids`,
    `    set -l state (${fn}_state)`,
    `    ${p} $state[3..-1] __complete-sessions (commandline -ct) 2>/dev/null`,
    "end",
    "",
    `complete -c ${p} -f`,
    ...model.globalFlags.map((f) => completeFlag(p, f)),
    ...model.commands.map((c) => `complete -c ${p} -n ${fn}_no_command -a ${c.name} -d ${quote(c.description)}`),
    ...model.commands.flatMap((c) => c.flags.map((f) => completeFlag(p, f, `${fn}_using ${c.name}`))),
    `complete -c ${p} -n '${fn}_wants session' -a '(${fn}_ids)'`,
    `complete -c ${p} -n '${fn}_wants file' -F`,
    `complete -c ${p} -n '${fn}_wants shell' -a ${quote(model.shells.join(" "))}`,
    `complete -c ${p} -n '${fn}_wants command' -a ${quote(model.commands.map((c) => c.name).join(" "))}`,
    "",
  ];
  return lines.join("\n");
}
