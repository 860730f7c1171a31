/**
 * Cuts long string values out of an entry line before it is parsed, for readers that keep lean
 * entries (`leanEntry`): a 26 KB tool output then costs a 300-byte string instead of a 26 KB one,
 * which is what keeps a 1 GB session's read small and quick. A string is cut only where the cut
 * cannot change what the lean entry or the reader's problems would be: its value is valid JSON
 * text and valid UTF-8 from end to end (so parsing the whole line would not have failed on it),
 * its key is not one the lean entry keeps verbatim, it is not inside `usage`, and what stays
 * (at least `chars` + 1 UTF-16 units, not all blank) is more than a lean entry keeps of it.
 * @module
 */
import { LazyStringScan, stepChar, type StringTail } from "./string-scan.ts";

/** Strings shorter than this many bytes are left alone. */
const MIN_CUT = 1024;
/** Bytes of a string literal one character takes at most (`\uXXXX`). */
const MAX_CHAR_BYTES = 6;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** How the rest of a string is scanned once the part that stays is known (see string-scan.ts). */
export type TailScan = (b: Uint8Array, from: number) => StringTail;

const scanner = new LazyStringScan();
/** The WebAssembly scan where there is one, else the byte loop: the same answers. */
const fastTail: TailScan = scanner.tail;

/**
 * Walks the string literal whose opening quote is at `start`. Returns the index of its closing
 * quote, whether its content is clean (valid escapes, no control bytes, valid UTF-8), and the
 * first character boundary at or after `start + 1 + keepBytes` once more than `chars` printable
 * characters came before it. Up to there it looks at each character; `tail` does the rest.
 */
function walkString(b: Uint8Array, start: number, keepBytes: number, chars: number, tail: TailScan): { end: number; clean: boolean; cutAt: number } {
  let clean = true;
  // Printable ASCII characters seen: each is one a preview shows (it trims blanks and folds runs
  // of control characters, never these), so the part that stays is long enough once it holds
  // `chars` + 1 of them, and `keepBytes` bytes.
  let printable = 0;
  const want = start + 1 + keepBytes;
  let i = start + 1;
  while (i < b.length) {
    if (i >= want && printable > chars) {
      const rest = tail(b, i);
      return { end: rest.end, clean: clean && rest.clean, cutAt: i };
    }
    const c = b[i];
    if (c === QUOTE) return { end: i, clean, cutAt: -1 };
    if (c > 0x20 && c < 0x7f && c !== BACKSLASH) {
      printable++;
      i++;
      continue;
    }
    const step = stepChar(b, i);
    if (!step.clean) clean = false;
    i = step.next;
  }
  return { end: -1, clean: false, cutAt: -1 };
}

const decoder = new TextDecoder();

/**
 * The line with long string values cut (see the module comment), or undefined when nothing was
 * cut. `kept`: keys whose string values stay whole; strings inside a `usage` object stay too.
 * `chars`: how many characters of a string the reader keeps; more than that stays.
 *
 * @example
 * ```ts
 * const line = new TextEncoder().encode(`{"id":"a","text":"${"x".repeat(5000)}"}`);
 * skimLine(line, new Set(["id"]), 41)!.length; // 272: the text keeps 6 × 42 bytes
 * ```
 */
export function skimLine(b: Uint8Array, kept: ReadonlySet<string>, chars: number, tail: TailScan = fastTail): Uint8Array | undefined {
  scanner.reset();
  const keepBytes = (chars + 1) * MAX_CHAR_BYTES;
  const minCut = Math.max(MIN_CUT, 2 * keepBytes);
  const parts: Uint8Array[] = [];
  let copied = 0;
  let total = 0;
  // Keys of the open containers, and how many of them are `usage`.
  const keys: (string | undefined)[] = [];
  let inUsage = 0;
  let key: string | undefined;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === 0x7b || c === 0x5b) {
      keys.push(key);
      if (key === "usage") inUsage++;
      key = undefined;
    } else if (c === 0x7d || c === 0x5d) {
      if (keys.pop() === "usage") inUsage--;
      key = undefined;
    } else if (c === QUOTE) {
      const { end, clean, cutAt } = walkString(b, i, keepBytes, chars, tail);
      if (end < 0) break;
      let j = end + 1;
      while (j < b.length && (b[j] === 0x20 || b[j] === 0x09)) j++;
      if (b[j] === COLON) {
        key = end - i - 1 <= 64 ? decoder.decode(b.subarray(i + 1, end)) : "";
      } else {
        if (clean && cutAt > 0 && end - i - 1 >= minCut && inUsage === 0 && !(key !== undefined && kept.has(key))) {
          parts.push(b.subarray(copied, cutAt));
          total += cutAt - copied;
          copied = end; // the closing quote and all after it come next
        }
        key = undefined;
      }
      i = end;
    }
  }
  if (parts.length === 0) return undefined;
  parts.push(b.subarray(copied));
  total += b.length - copied;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
