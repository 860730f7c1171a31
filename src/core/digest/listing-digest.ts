/**
 * The catalog section behind `list` and `pick`: pi's `SessionInfo` fields, kept as resumable
 * state so an appended session costs only its new lines.
 * @module
 */
import { addListingLine, emptyListing, listingInfo, type ListingState, type SessionInfo } from "../info/session-info.ts";
import type { DigestKind, DigestState } from "./digester.ts";

/** Listing state per session file. */
export const listingDigest: DigestKind<ListingState> = {
  name: "listing",
  version: 2,
  initial: emptyListing,
  entry: (data, line) => addListingLine(data, line),
};

/** What `messageTextsDigest` keeps: the texts already joined, as `allMessagesText` wants them. */
export interface MessageTexts {
  text: string;
}

/**
 * The user and assistant texts pi searches in its session picker (`allMessagesText`: joined
 * by spaces). A section of its own: only searches pay for keeping them. Kept joined, so that
 * loading them is one string per session rather than thousands of small ones.
 */
export const messageTextsDigest: DigestKind<MessageTexts> = {
  name: "message-texts",
  version: 3,
  packed: true,
  initial: () => ({ text: "" }),
  entry: (state, line) => {
    // The listing's own fold collects the texts, so they are exactly the ones an uncached read finds.
    const texts: string[] = [];
    addListingLine(emptyListing(), line, texts);
    for (const text of texts) state.text = state.text === "" ? text : `${state.text} ${text}`;
  },
};

/**
 * The `SessionInfo` a listing digest describes, or null when the file is not a session;
 * `texts` (a `messageTextsDigest` state) fills `allMessagesText`.
 *
 * @example
 * ```ts
 * digestInfo("/s.jsonl", { header: null, rejected: true, data: emptyListing() }, 0); // null
 * ```
 */
export function digestInfo(path: string, state: DigestState<ListingState>, mtimeMs: number, texts?: MessageTexts): SessionInfo | null {
  if (state.rejected || state.header === null) return null;
  return listingInfo(path, state.header as Record<string, unknown>, state.data, mtimeMs, texts ? [texts.text] : []);
}
