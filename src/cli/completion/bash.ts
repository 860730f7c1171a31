/**
 * The bash completion script, written from the completion model. It runs on bash 3.2
 * (macOS) and needs no bash-completion package; session ids come from `__complete-sessions`.
 * @module
 */
import { argWords, type CompletionModel, type FlagModel, flagNames } from "./model.ts";

function valueFlags(flags: FlagModel[]): string {
  return flags.filter((f) => f.takesValue).flatMap(flagNames).join(" ");
}

/** `case` arms completing flag values: per command first, then the global flags. */
function valueArms(model: CompletionModel, fn: string): string[] {
  const arms: string[] = [];
  const arm = (patterns: string[], action: string) => arms.push(`    ${patterns.join("|")}) ${action}; return 0 ;;`);
  const action = (f: FlagModel) =>
    f.value === "choices" ? `${fn}_words "${f.choices.join(" ")}" "$cur"` : f.value === "dir" ? `${fn}_dirs "$cur"` : f.value === "file" ? `${fn}_files "$cur"` : "";
  for (const c of model.commands) {
    for (const f of c.flags) if (f.takesValue && f.value !== "none") arm(flagNames(f).map((n) => `${c.name}:${n}`), action(f));
  }
  for (const f of model.globalFlags) if (f.takesValue && f.value !== "none") arm(flagNames(f).map((n) => `*:${n}`), action(f));
  return arms;
}

function commandArms(model: CompletionModel): string[] {
  return model.commands.map((c) => {
    const flags = c.flags.flatMap(flagNames).join(" ");
    return `    ${c.name}) flags="${flags}"; vflags="${valueFlags(c.flags)}"; kinds="${argWords(c).join(" ")}" ;;`;
  });
}

/**
 * The script; load it with `source <(pi-session completions bash)`.
 *
 * @example
 * ```ts
 * // bashScript(model).includes("complete -F _pi_session pi-session") === true
 * ```
 */
export function bashScript(model: CompletionModel): string {
  const fn = `_${model.program.replace(/\W/g, "_")}`;
  const globalFlags = model.globalFlags.flatMap(flagNames).join(" ");
  const globalValueFlags = model.globalFlags.filter((f) => f.takesValue);
  const commands = model.commands.map((c) => c.name).join(" ");
  return `# bash completion for ${model.program} (written by \`${model.program} completions bash\`; do not edit)
# Load it with:  source <(${model.program} completions bash)

${fn}_words() { local IFS=$' \\t\\n'; COMPREPLY+=($(compgen -W "$1" -- "$2")); }
${fn}_files() {
  local IFS=$'\\n'
  COMPREPLY+=($(compgen -f -- "$1"))
  compopt -o filenames 2>/dev/null
}
${fn}_dirs() {
  local IFS=$'\\n'
  COMPREPLY+=($(compgen -d -- "$1"))
  compopt -o filenames 2>/dev/null
}
# Session ids of this directory, then of all projects; "$@" are the global options typed so far.
${fn}_ids() {
  local cur=$1
  shift
  ${fn}_words "$(${model.program} "$@" __complete-sessions "$cur" 2>/dev/null)" "$cur"
}

${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev="" cmd="" at=0 i w n=0
  local globals=() flags="" vflags="" kinds=""
  local gvflags="${valueFlags(model.globalFlags)}"
  COMPREPLY=()
  ((COMP_CWORD > 0)) && prev=\${COMP_WORDS[COMP_CWORD - 1]}
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    case $w in
      ${globalValueFlags.flatMap(flagNames).join("|") || "--"})
        globals+=("$w" "\${COMP_WORDS[i + 1]}")
        ((i++))
        continue ;;
    esac
    if [[ -z $cmd && $w != -* ]]; then
      cmd=$w
      at=$i
    fi
  done
  case $cmd in
    "") ;;
${commandArms(model).join("\n")}
    *) return 0 ;;
  esac
  case "$cmd:$prev" in
${valueArms(model, fn).join("\n")}
  esac
  if [[ -n $prev && " $vflags $gvflags " == *" $prev "* ]]; then return 0; fi
  if [[ $cur == -* ]]; then
    ${fn}_words "$flags ${globalFlags}" "$cur"
    return 0
  fi
  if [[ -z $cmd ]]; then
    ${fn}_words "${commands}" "$cur"
    return 0
  fi
  for ((i = at + 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ " $vflags $gvflags " == *" $w "* ]]; then
      ((i++))
    elif [[ $w != -* ]]; then
      ((n++))
    fi
  done
  local list=($kinds) kind=none
  if ((n < \${#list[@]})); then
    kind=\${list[n]}
  elif ((\${#list[@]} > 0)); then
    kind=\${list[\${#list[@]} - 1]}
    [[ $kind == *... ]] || kind=none
  fi
  case \${kind%...} in
    session)
      if [[ $cur == */* || $cur == .* || $cur == '~'* ]]; then ${fn}_files "$cur"; else ${fn}_ids "$cur" "\${globals[@]}"; fi ;;
    file) ${fn}_files "$cur" ;;
    shell) ${fn}_words "${model.shells.join(" ")}" "$cur" ;;
    command) ${fn}_words "${commands}" "$cur" ;;
  esac
  return 0
}

complete -F ${fn} ${model.program}
`;
}
