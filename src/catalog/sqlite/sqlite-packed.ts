/**
 * States kept deflated: a section whose states no query reads into (`SectionKey.packed`: the
 * picker's message texts, 80 MB of text at 25,000 sessions) keeps each long one as a BLOB of
 * raw deflate at its fastest level (a third of the size; level 6 saved a tenth more for three
 * times the time). Any stored state may be text: a short one, or one an older build wrote.
 * @module
 */
import type { SectionKey } from "../store.ts";

/**
 * `node:zlib`, loaded by `readyToPack` for a packed section alone: imported at startup it cost
 * every command 11 ms (it brings node's streams with it), where most never read a packed state.
 */
let zlib: typeof import("node:zlib") | undefined;

/**
 * Before a packed section's states are read or written: loads what packs them, the first time
 * (undefined when nothing is to be loaded: a store's work then runs at once, as before).
 */
export function readyToPack(section: SectionKey): Promise<void> | undefined {
  if (!section.packed || zlib !== undefined) return undefined;
  return import("node:zlib").then((loaded) => void (zlib = loaded));
}

/**
 * Shorter states (characters) are kept as text. A few long sessions hold most of the texts (at
 * 25,000 sessions, the 8 states of 64 K characters or more held 42 of the 80 MB), while inflating
 * and decoding costs about as much again as reading the text: packing every state of 256
 * characters or more saved 44 MB (18 more than these alone) but took a warm `list --all --search`
 * from 1.6 to 2.2–2.7 s.
 */
const PACK_FROM = 64 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A state's JSON as the store keeps it: deflated bytes where `section` is packed (`readyToPack`) and the text long. */
export function packState(section: SectionKey, json: string): string | Uint8Array {
  return section.packed && zlib && json.length >= PACK_FROM ? zlib.deflateRawSync(encoder.encode(json), { level: 1 }) : json;
}

/**
 * A stored state's JSON text: as it is, or inflated (its section made `readyToPack`); undefined
 * for a value no store wrote. Throws `SyntaxError` for bytes that do not inflate.
 */
export function unpackState(stored: unknown): string | undefined {
  if (typeof stored === "string") return stored;
  if (!(stored instanceof Uint8Array)) return undefined;
  if (!zlib) throw new SyntaxError("a packed state read before its section was made ready");
  return decoder.decode(zlib.inflateRawSync(stored));
}
