/**
 * The fork message selector (pi's /fork) as a pure reducer: every user message of the file
 * in order, all branches, starting on the newest; Up/Down wrap, PageUp/PageDown page.
 * @module
 */
import type { SessionEntry } from "../../../core/format/types.ts";
import { textOfContent } from "../../../render/entry-line.ts";
import { chord, type Key } from "../keys.ts";
import type { PromptState } from "../prompt.ts";

/** A user message to fork before. */
export interface ForkMessage {
  id: string;
  /** Its text blocks joined without separator, as pi puts them back in the editor. */
  text: string;
}

export interface ForkSelectState extends PromptState<never, ForkMessage> {
  messages: readonly ForkMessage[];
  selected: number;
  pageSize: number;
}

/**
 * The user messages with text, in file order (pi's /fork list).
 *
 * @example
 * ```ts
 * // userMessages(file.entries).map((m) => m.text)
 * ```
 */
export function userMessages(entries: readonly SessionEntry[]): ForkMessage[] {
  const messages: ForkMessage[] = [];
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const message = (entry as { message?: { role?: unknown; content?: unknown } }).message;
    if (message?.role !== "user") continue;
    const text = textOfContent(message.content);
    if (text.trim()) messages.push({ id: entry.id, text });
  }
  return messages;
}

/** A selector on the newest message. */
export function initialForkSelect(messages: readonly ForkMessage[], pageSize = 10): ForkSelectState {
  return { messages, selected: Math.max(0, messages.length - 1), pageSize, effects: [] };
}

/** The selector after one key. */
export function reduceForkSelect(state: ForkSelectState, key: Key): ForkSelectState {
  const last = state.messages.length - 1;
  const clamp = (index: number) => Math.max(0, Math.min(last, index));
  switch (chord(key)) {
    case "up":
      return { ...state, selected: state.selected === 0 ? last : state.selected - 1 };
    case "down":
      return { ...state, selected: state.selected === last ? 0 : state.selected + 1 };
    case "pageup":
      return { ...state, selected: clamp(state.selected - state.pageSize) };
    case "pagedown":
      return { ...state, selected: clamp(state.selected + state.pageSize) };
    case "enter": {
      const message = state.messages[state.selected];
      return message ? { ...state, exit: { kind: "done", value: message } } : state;
    }
    case "escape":
    case "ctrl+c":
      return { ...state, exit: { kind: "cancel" } };
  }
  return state;
}
