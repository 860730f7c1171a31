/**
 * The words of a shell command line that look like paths, for `files`: quotes removed,
 * operators (`; | & < > ( )`) split off, flags and `--flag=` prefixes dropped. A heuristic by
 * nature: it never runs or expands anything.
 * @module
 */

const OPERATORS = new Set([";", "|", "&", "<", ">", "(", ")", "`"]);

/** Splits a command into words the way a POSIX shell would quote them (no expansion). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let quoted = false;
  const flush = () => {
    if (word !== "" || quoted) words.push(word);
    word = "";
    quoted = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'") {
      const close = command.indexOf("'", i + 1);
      const end = close < 0 ? command.length : close;
      word += command.slice(i + 1, end);
      quoted = true;
      i = end;
    } else if (c === '"') {
      quoted = true;
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) i++;
        word += command[i];
      }
    } else if (c === "\\" && i + 1 < command.length) {
      word += command[++i];
    } else if (c === " " || c === "\t" || c === "\n" || c === "\r" || OPERATORS.has(c)) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return words;
}

/**
 * The words of `command` that may name files: they contain `/` or `.`, or are `~`; options
 * (`-x`), `--opt=value` prefixes, URLs, globs and variables are left out.
 *
 * @example
 * ```ts
 * commandPaths("cat 'my file.txt' src/a.ts | grep -n x --out=dist/b.js");
 * // ["my file.txt", "src/a.ts", "dist/b.js"]
 * ```
 */
export function commandPaths(command: string): string[] {
  const paths: string[] = [];
  for (let word of shellWords(command)) {
    if (word.startsWith("-")) {
      const eq = word.indexOf("=");
      if (eq < 0) continue;
      word = word.slice(eq + 1);
    }
    if (word === "" || word.includes("://") || /[*?[\]$]/.test(word)) continue;
    if (word === "~" || word.includes("/") || word.includes(".")) {
      if (!paths.includes(word)) paths.push(word);
    }
  }
  return paths;
}
