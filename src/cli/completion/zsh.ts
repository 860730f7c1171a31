/**
 * The zsh completion script, written from the completion model: commands and flags with
 * their descriptions, flag values, and session ids from `__complete-sessions`.
 * @module
 */
import { argWords, type CompletionModel, type FlagModel, flagNames } from "./model.ts";

/** A zsh single-quoted word. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `name:description` items for `_describe`, one per flag name. */
function described(flags: FlagModel[]): string {
  return flags.flatMap((f) => flagNames(f).map((n) => quote(`${n}:${f.description.replace(/\s+/g, " ")}`))).join(" ");
}

function valueFlags(flags: FlagModel[]): string {
  return flags.filter((f) => f.takesValue).flatMap(flagNames).join(" ");
}

function valueArms(model: CompletionModel): string[] {
  const arms: string[] = [];
  const action = (f: FlagModel) =>
    f.value === "choices" ? `compadd -- ${f.choices.join(" ")}` : f.value === "dir" ? "_files -/" : "_files";
  for (const c of model.commands) {
    for (const f of c.flags) if (f.takesValue && f.value !== "none") arms.push(`    (${flagNames(f).map((n) => `${c.name}:${n}`).join("|")}) ${action(f)}; return ;;`);
  }
  for (const f of model.globalFlags) if (f.takesValue && f.value !== "none") arms.push(`    (${flagNames(f).map((n) => `*:${n}`).join("|")}) ${action(f)}; return ;;`);
  return arms;
}

/**
 * The script: put it in a directory on `$fpath` as `_pi-session`, or `source <(pi-session completions zsh)`.
 *
 * @example
 * ```ts
 * // zshScript(model).startsWith("#compdef pi-session") === true
 * ```
 */
export function zshScript(model: CompletionModel): string {
  const fn = `_${model.program.replace(/\W/g, "_")}`;
  const globalValueFlags = model.globalFlags.filter((f) => f.takesValue).flatMap(flagNames);
  const commands = model.commands.map((c) => quote(`${c.name}:${c.description.replace(/\s+/g, " ")}`)).join(" ");
  const arms = model.commands.map((c) =>
    `    (${c.name}) flags=(${described(c.flags)}); vflags="${valueFlags(c.flags)}"; kinds=(${argWords(c).join(" ")}) ;;`
  );
  return `#compdef ${model.program}
# zsh completion for ${model.program} (written by \`${model.program} completions zsh\`; do not edit)

${fn}() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} cmd="" at=0 i w n=0 vflags=""
  local gvflags="${valueFlags(model.globalFlags)}"
  local -a globals flags kinds
  local -a gflags=(${described(model.globalFlags)})
  local -a commands=(${commands})
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    case $w in
      (${globalValueFlags.join("|") || "--"})
        globals+=("$w" "\${words[i+1]}")
        ((i++))
        continue ;;
    esac
    if [[ -z $cmd && $w != -* ]]; then
      cmd=$w
      at=$i
    fi
  done
  case $cmd in
    ("") ;;
${arms.join("\n")}
    (*) return 1 ;;
  esac
  case "$cmd:$prev" in
${valueArms(model).join("\n")}
  esac
  if [[ " $vflags $gvflags " == *" $prev "* ]]; then return 1; fi
  if [[ $cur == -* ]]; then
    _describe -t options option flags -- gflags
    return
  fi
  if [[ -z $cmd ]]; then
    _describe -t commands command commands
    return
  fi
  for ((i = at + 1; i < CURRENT; i++)); do
    w=\${words[i]}
    if [[ " $vflags $gvflags " == *" $w "* ]]; then
      ((i++))
    elif [[ $w != -* ]]; then
      ((n++))
    fi
  done
  local kind=none
  if ((n < \${#kinds})); then
    kind=\${kinds[n+1]}
  elif ((\${#kinds} > 0)) && [[ \${kinds[-1]} == *... ]]; then
    kind=\${kinds[-1]}
  fi
  case \${kind%...} in
    (session)
      if [[ $cur == */* || $cur == .* || $cur == '~'* ]]; then
        _files
      else
        local -a ids=(\${(f)"$(${model.program} "\${globals[@]}" __complete-sessions "$cur" 2>/dev/null)"})
        compadd -a ids
      fi ;;
    (file) _files ;;
    (shell) compadd -- ${model.shells.join(" ")} ;;
    (command) _describe -t commands command commands ;;
  esac
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${model.program}
fi
`;
}
