/**
 * Long output of `show`, `context` and `tree` on a terminal goes through a pager, as git
 * does: `$PAGER` (empty or `cat`: none), else `less -R`; only when stdout is a terminal and
 * the text is taller than it, and never with `--no-pager`. Pure decisions; `main.ts` runs it.
 * @module
 */
import { textWidth } from "../render/text-width.ts";

/** The pager to run, or undefined for none. */
export function pagerCommand(env: (name: string) => string | undefined): string | undefined {
  const chosen = env("PAGER");
  if (chosen === undefined) return "less -R";
  const command = chosen.trim();
  return command === "" || command === "cat" ? undefined : command;
}

/**
 * Whether `text` takes more rows than the terminal has, counting lines that wrap.
 *
 * @example
 * ```ts
 * tallerThan("a\nb\nc\n", { columns: 80, rows: 2 }); // true
 * ```
 */
export function tallerThan(text: string, size: { columns: number; rows: number }): boolean {
  const lines = text.replace(/\n$/, "").split("\n");
  let rows = 0;
  for (const line of lines) {
    // deno-lint-ignore no-control-regex
    const width = textWidth(line.replace(/\x1b\[[0-9;]*m/g, ""));
    rows += Math.max(1, Math.ceil(width / Math.max(1, size.columns)));
    // The last screen row is the shell's prompt: a text as tall as the screen scrolls.
    if (rows >= size.rows) return true;
  }
  return false;
}
