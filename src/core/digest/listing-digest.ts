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
 * `MessageTexts` during a pass: the texts not yet joined to `text` (`compact` joins them, so
 * stores never see these), and their length.
 */
interface TextsInPass extends MessageTexts {
  pieces?: string[];
  pending?: number;
}

/**
 * Characters of texts joined to `text` at a time. Each text joined on its own made `text` a
 * string of as many parts as the session has messages (a rope, 400,000 deep for the 1.2 GB bench
 * session), each one marked at every collection of the read: one every few megabytes read, at
 * 20 ms each (6 of the read's 7 s).
 */
const JOIN_EVERY = 256 * 1024;

/** Joins the pending texts of `state` to its text, as if each had been joined when it came. */
function joinPieces(state: TextsInPass): void {
  const pieces = state.pieces;
  if (!pieces?.length) return;
  const joined = pieces.join(" ");
  state.text = state.text === "" ? joined : `${state.text} ${joined}`;
  pieces.length = 0;
  state.pending = 0;
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
  entry: (state: TextsInPass, line) => {
    // The listing's own fold collects the texts, so they are exactly the ones an uncached read finds.
    const texts: string[] = [];
    addListingLine(emptyListing(), line, texts);
    const pieces = state.pieces ??= [];
    for (const text of texts) {
      pieces.push(text);
      state.pending = (state.pending ?? 0) + text.length + 1;
    }
    if (state.pending! >= JOIN_EVERY) joinPieces(state);
  },
  compact: (state: TextsInPass) => {
    joinPieces(state);
    delete state.pieces;
    delete state.pending;
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
