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
  version: 1,
  initial: emptyListing,
  entry: (data, line) => addListingLine(data, line),
};

/**
 * The `SessionInfo` a listing digest describes, or null when the file is not a session.
 *
 * @example
 * ```ts
 * digestInfo("/s.jsonl", { header: null, rejected: true, data: emptyListing() }, 0); // null
 * ```
 */
export function digestInfo(path: string, state: DigestState<ListingState>, mtimeMs: number): SessionInfo | null {
  if (state.rejected || state.header === null) return null;
  return listingInfo(path, state.header as Record<string, unknown>, state.data, mtimeMs);
}
