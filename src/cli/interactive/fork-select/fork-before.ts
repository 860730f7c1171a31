/**
 * Forking "before" an entry, as pi's /fork and /tree do it: for a user (or extension)
 * message the new session ends at its parent and the message text is handed back to send
 * again; any other entry is kept as the new session's last entry (pi's /tree), or with
 * `strict` (`fork --before`) left out too.
 * @module
 */
import type { SessionEntry } from "../../../core/format/types.ts";
import type { SessionTree } from "../../../core/tree/session-tree.ts";
import { branchOut } from "../../branch-out.ts";
import type { CliContext } from "../../context.ts";
import { textOfContent } from "../../../render/entry-line.ts";

/** The text a prompt entry carries, or undefined when the entry is not a prompt. */
function promptText(entry: SessionEntry): string | undefined {
  const e = entry as { type: string; message?: { role?: unknown; content?: unknown }; content?: unknown };
  if (e.type === "custom_message") return textOfContent(e.content);
  if (e.type === "message" && e.message?.role === "user") return textOfContent(e.message.content);
  return undefined;
}

/**
 * Writes the new session (its path on stdout, as `fork` prints it) and then, for a prompt
 * entry, its text on stderr under "Message to send again:". Exit code as `branchOut`'s.
 * `entry` is an id, or a function that finds it in the loaded tree (an entry reference).
 *
 * @example
 * ```ts
 * // await forkBefore(ctx, "/s/a.jsonl", "5f6e7d8c");
 * ```
 */
export async function forkBefore(
  ctx: CliContext,
  path: string,
  entry: string | ((tree: SessionTree) => string),
  options: { strict?: boolean } = {},
): Promise<number> {
  let text: string | undefined;
  const code = await branchOut(ctx, path, async (tree, source) => {
    const entryId = typeof entry === "string" ? entry : entry(tree);
    // The tree may hold lean copies: the text comes from the entry as the file holds it.
    const chosen = tree.byId.has(entryId) ? await source.fullEntry(entryId) : undefined;
    if (!chosen) return { leafId: null, why: `Entry ${entryId} is no longer in ${path}` };
    text = promptText(chosen);
    const leafId = text === undefined && !options.strict ? chosen.id : chosen.parentId;
    if (leafId === null) {
      const what = text === undefined ? "this entry" : "this message";
      return { leafId: null, why: `Nothing to fork: no entry comes before ${what}${text === undefined ? "" : "; send it in a new pi session instead"}` };
    }
    return { leafId };
  });
  if (code === 0 && text !== undefined) ctx.deps.stderr(`Message to send again:\n${text}\n`);
  return code;
}
