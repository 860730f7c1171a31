/**
 * Ids for new entries and sessions, from `crypto.getRandomValues` (a Web API, so every
 * runtime has it): 8-hex entry ids with pi's collision rule, and UUIDv7 session ids.
 * @module
 */

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

function dashed(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Random bytes fetched in one call for many entry ids (one call per id was a tenth of an append). */
const pool = new Uint8Array(4096);
let pooled = 0;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A random 8-hex entry id, the shape pi writes. */
export function randomEntryId(): string {
  if (pooled < 4) {
    crypto.getRandomValues(pool);
    pooled = pool.length;
  }
  pooled -= 4;
  return HEX[pool[pooled]] + HEX[pool[pooled + 1]] + HEX[pool[pooled + 2]] + HEX[pool[pooled + 3]];
}

/** A random UUID (version 4). */
export function uuidV4(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return dashed(hex(bytes));
}

// Ordered within a millisecond, like pi's generator: a 12-bit counter in rand_a (starting low
// and random) orders ids made in the same millisecond, and the time moves on by one when it
// runs out. Unlike pi, a clock that goes back is followed, so an injected clock is honoured.
let lastRequested = -1;
let lastMs = -1;
let counter = 0;

/**
 * A time-ordered UUID (version 7) for `nowMs`.
 *
 * @example
 * ```ts
 * uuidV7(Date.parse("2024-01-01T00:00:00Z")).slice(0, 13); // "018cc251-f400"
 * ```
 */
export function uuidV7(nowMs: number): string {
  const requested = Math.max(0, Math.floor(nowMs));
  let ms = requested;
  if (requested !== lastRequested) {
    counter = crypto.getRandomValues(new Uint16Array(1))[0] & 0x3ff;
  } else {
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      ms++;
      counter = 0;
    }
  }
  lastRequested = requested;
  lastMs = ms;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  for (let i = 5, t = ms; i >= 0; i--, t = Math.floor(t / 256)) bytes[i] = t % 256;
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return dashed(hex(bytes));
}

/**
 * An id from `newId` that `taken` does not hold. Like pi: 100 tries, then a full UUID
 * (which cannot realistically collide).
 */
export function uniqueEntryId(taken: { has(id: string): boolean }, newId: () => string = randomEntryId): string {
  for (let i = 0; i < 100; i++) {
    const id = newId();
    if (!taken.has(id)) return id;
  }
  return uuidV4();
}
