/**
 * States kept deflated: a section whose states no query reads into (`SectionKey.packed`: the
 * picker's message texts, 83 MB of text at 25,000 sessions) keeps each long one as a BLOB of
 * raw deflate at its fastest level (a third of the size; level 6 saved a tenth more for three
 * times the time). Any stored state may be text: a short one, or one an older build wrote.
 * @module
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { SectionKey } from "../store.ts";

/** Shorter states (characters) are kept as text: deflate saves little of them. */
const PACK_FROM = 256;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A state's JSON as the store keeps it: deflated bytes where `section` is packed and the text long. */
export function packState(section: SectionKey, json: string): string | Uint8Array {
  return section.packed && json.length >= PACK_FROM ? deflateRawSync(encoder.encode(json), { level: 1 }) : json;
}

/** A stored state's JSON text: as it is, or inflated; undefined for a value no store wrote. */
export function unpackState(stored: unknown): string | undefined {
  if (typeof stored === "string") return stored;
  return stored instanceof Uint8Array ? decoder.decode(inflateRawSync(stored)) : undefined;
}
