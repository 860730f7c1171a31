/**
 * `fork <ref>` without `--at` or `--before` on a terminal: choose a user message in the
 * selector, then fork so that the new session ends just before it (as `--before` does).
 * @module
 */
import type { CliContext } from "../../context.ts";
import { loadSessionAt } from "../../../query/load.ts";
import type { Terminal } from "../prompt.ts";
import { CANCELLED } from "../require-terminal.ts";
import { forkBefore } from "./fork-before.ts";
import { renderForkSelect } from "./render.ts";
import { type ForkMessage, type ForkSelectState, initialForkSelect, reduceForkSelect, userMessages } from "./state.ts";

/** Lines besides the messages: title, two hint lines, blank, counter, one spare. */
const CHROME = 6;

/**
 * Runs the selector on the session at `path` and forks at the choice; 130 when cancelled,
 * 1 when the file has no user message.
 */
export async function selectAndFork(ctx: CliContext, terminal: Terminal, path: string): Promise<number> {
  const { file } = await loadSessionAt(ctx, path);
  const messages = userMessages(file.entries);
  if (messages.length === 0) {
    ctx.note("No messages to fork from");
    return 1;
  }
  // Each message takes two lines; keep the frame within the terminal.
  const pageSizeFor = (rows: number) => Math.max(1, Math.min(10, Math.floor((rows - CHROME) / 2)));
  const exit = await terminal.run<ForkSelectState, never, ForkMessage>({
    initial: initialForkSelect(messages, pageSizeFor(terminal.size().rows)),
    reduce: reduceForkSelect,
    resize: (state, size) => ({ ...state, pageSize: pageSizeFor(size.rows) }),
    render: (state, size) => renderForkSelect(state, size, ctx.errColor),
  });
  if (exit.kind === "cancel") return CANCELLED;
  return await forkBefore(ctx, path, exit.value.id, { strict: true });
}
