/**
 * Forking "before" an entry, as pi's /fork and /tree do it: for a user (or extension)
 * message the new session ends at its parent and the message text is handed back to send
 * again; any other entry is kept as the new session's last entry.
 * @module
 */
import type { SessionEntry } from "../../../core/format/types.ts";
import { branchOut } from "../../branch-out.ts";
import type { CliContext } from "../../context.ts";
import { textOfContent } from "../../render/entry-line.ts";

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
 *
 * @example
 * ```ts
 * // await forkBefore(ctx, "/s/a.jsonl", "5f6e7d8c");
 * ```
 */
export async function forkBefore(ctx: CliContext, path: string, entryId: string): Promise<number> {
  let text: string | undefined;
  const code = await branchOut(ctx, path, (tree) => {
    const entry = tree.byId.get(entryId);
    if (!entry) return { leafId: null, why: `Entry ${entryId} is no longer in ${path}` };
    text = promptText(entry);
    const leafId = text === undefined ? entry.id : entry.parentId;
    if (leafId === null) return { leafId: null, why: "Nothing to fork: no entry comes before this message; send it in a new pi session instead" };
    return { leafId };
  });
  if (code === 0 && text !== undefined) ctx.deps.stderr(`Message to send again:\n${text}\n`);
  return code;
}
