/**
 * What a reading query says about lines it could not use: how many, the first few line
 * numbers, and where to look (`check`), as a warning; the answer stays the query's own.
 * @module
 */
import { type ReadIssue, skippedLines } from "../core/read/issue.ts";
import type { QueryEnv } from "./env.ts";

/** Line numbers named before "…". */
const SHOWN = 5;

/** `path` as a shell word: quoted when it holds anything a shell would split or expand. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./~-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/**
 * The note for the skipped lines among `issues`, or undefined when none was skipped.
 *
 * @example
 * ```ts
 * // skippedNote("/s/a.jsonl", issues) ->
 * // "skipped 2 broken lines of /s/a.jsonl (lines 4, 9); run `pi-session check /s/a.jsonl` for details"
 * ```
 */
export function skippedNote(path: string, issues: readonly ReadIssue[]): string | undefined {
  const lines = skippedLines(issues);
  if (lines.length === 0) return undefined;
  const shown = lines.slice(0, SHOWN).join(", ") + (lines.length > SHOWN ? ", …" : "");
  const what = lines.length === 1 ? `1 broken line of ${path} (line ${shown})` : `${lines.length} broken lines of ${path} (lines ${shown})`;
  return `skipped ${what}; run \`pi-session check ${shellWord(path)}\` for details`;
}

/** Reports `skippedNote` as a warning (the CLI keeps it with `-q`: output is missing); true when it did. */
export function reportSkipped(env: QueryEnv, path: string, issues: readonly ReadIssue[]): boolean {
  const note = skippedNote(path, issues);
  if (note !== undefined) env.report.warn(note);
  return note !== undefined;
}
