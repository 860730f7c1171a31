/**
 * A fast, non-cryptographic 64-bit fingerprint of a few bytes (cyrb53's mixing, two 32-bit
 * lanes). The catalog uses it to see whether a file's start and old end are unchanged.
 * @module
 */

/**
 * 16 hex digits that change when any byte (or the length) changes.
 *
 * @example
 * ```ts
 * hashBytes(new TextEncoder().encode("abc")) !== hashBytes(new TextEncoder().encode("abd")); // true
 * ```
 */
export function hashBytes(bytes: Uint8Array): string {
  let h1 = 0xdeadbeef ^ bytes.length;
  let h2 = 0x41c6ce57 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
}
