/**
 * Deterministic entry ids for migrated files: the same file always migrates to the same
 * bytes (pi draws random ids instead). 8 hex characters, like the ids pi writes.
 * @module
 */

function hash32(text: string): number {
  // FNV-1a over UTF-16 code units, then murmur3's finaliser to spread the bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * An 8-hex id for the entry at `position` of session `sessionId`, not in `taken`.
 * The chosen id is added to `taken`.
 *
 * @example
 * ```ts
 * const taken = new Set<string>();
 * deriveEntryId("abc", 1, taken) === deriveEntryId("abc", 1, new Set()); // true
 * ```
 */
export function deriveEntryId(sessionId: string, position: number, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const id = hash32(`${sessionId}\u0000${position}\u0000${attempt}`).toString(16).padStart(8, "0");
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}
