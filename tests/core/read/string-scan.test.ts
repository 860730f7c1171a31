/**
 * The string scan: its WebAssembly is what string-scan.wat assembles to, it gives the same end
 * and cleanness as the byte loop for every kind of character, escape and bad byte, across window
 * boundaries, and `skimLine` cuts the same bytes with it as without it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { STRING_SCAN_WASM } from "../../../src/core/read/string-scan-wasm.ts";
import { LazyStringScan, stringTailJs, WasmStringScanner } from "../../../src/core/read/string-scan.ts";
import { skimLine } from "../../../src/core/read/skim-line.ts";
import { LEAN_KEPT_KEYS } from "../../../src/core/read/lean-entry.ts";
import { mulberry32 } from "../../../scripts/seeded-random.ts";

const enc = (s: string) => new TextEncoder().encode(s);

test("string-scan-wasm.ts holds what string-scan.wat assembles to (else run `npx tsx scripts/build-wasm.ts`)", async (t) => {
  let build;
  try {
    build = await import("../../../scripts/build-wasm.ts");
  } catch (error) {
    return t.skip(`wabt does not load here (${(error as Error).message})`);
  }
  assert.equal(STRING_SCAN_WASM, build.base64(await build.assemble(build.STRING_SCAN_WAT)));
});

/** Pieces of string text, clean and not: every class of byte the scan tells apart. */
const PIECES: Uint8Array[] = [
  ...["a", "plain text ", "x".repeat(40), " ", "\x7f", "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t", "\\u00e9", "\\uABCD", "\\ud83d\\ude80"].map(enc),
  ...["é", "ï", "日本語", "🚀", "\u0800", "\uffff", "\u{10ffff}", "\u{10000}"].map(enc),
  // Not clean: bad escapes, control bytes, bad UTF-8 (lone continuation, overlongs, surrogates, too high, cut short).
  ...["\\x", "\\u12G4", "\\u12", "\\U0041", "\\ ", "\t", "\u0001", "\n"].map(enc),
  ...[[0x80], [0xbf], [0xc0, 0xaf], [0xc1, 0xbf], [0xc3], [0xc3, 0x28], [0xe0, 0x80, 0x80], [0xe0, 0x9f, 0xbf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf],
    [0xe2, 0x82], [0xe2, 0x28, 0xa1], [0xf0, 0x80, 0x80, 0x80], [0xf0, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff], [0xf0, 0x9f, 0x98]]
    .map((b) => new Uint8Array(b)),
];

function randomText(next: () => number, pieces: number, cleanOnly: boolean): Uint8Array {
  const parts: Uint8Array[] = [];
  const usable = cleanOnly ? PIECES.slice(0, 24) : PIECES;
  for (let k = 0; k < pieces; k++) {
    // Mostly plain text, as in a session, so blocks of 16 are skipped whole too.
    parts.push(next() < 0.6 ? PIECES[Math.floor(next() * 4)] : usable[Math.floor(next() * usable.length)]);
  }
  const length = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `text` as the body of a string literal in a line: `{"k":"` + text + `"}` (or cut short). */
function lineOf(text: Uint8Array, closed: boolean): { bytes: Uint8Array; from: number } {
  const head = enc('{"k":"');
  const tail = closed ? enc('","z":1}') : new Uint8Array(0);
  const bytes = new Uint8Array(head.length + text.length + tail.length);
  bytes.set(head);
  bytes.set(text, head.length);
  bytes.set(tail, head.length + text.length);
  return { bytes, from: head.length };
}

test("WasmStringScanner finds the same end and cleanness as the byte loop, in any window", (t) => {
  const windows = [16, 17, 64, 1000, 65536];
  const scanners = windows.map((w) => WasmStringScanner.create(w));
  if (scanners[0] === null) return t.skip("no WebAssembly SIMD in this runtime: skimLine loops over the bytes");
  const next = mulberry32(22);
  let dirty = 0;
  for (let round = 0; round < 600; round++) {
    const text = randomText(next, 1 + Math.floor(next() * (round % 10 === 0 ? 3000 : 120)), round % 3 === 0);
    const { bytes, from } = lineOf(text, round % 7 !== 0);
    const expected = stringTailJs(bytes, from);
    if (!expected.clean) dirty++;
    for (const [k, scanner] of scanners.entries()) {
      scanner!.reset();
      assert.deepEqual(scanner!.tail(bytes, from), expected, `round ${round}, window ${windows[k]}`);
      // From every character boundary the byte loop would pass through, too.
      for (let at = from + 1; at < Math.min(bytes.length, from + 40); at++) {
        const want = stringTailJs(bytes, at);
        assert.deepEqual(scanner!.tail(bytes, at), want, `round ${round}, window ${windows[k]}, from ${at}`);
      }
    }
  }
  assert.ok(dirty > 100 && dirty < 500, `a mix of clean and dirty strings (${dirty} dirty)`);
});

test("WasmStringScanner finds a quote that ends a string right at a window's end, and one escaped across it", (t) => {
  const scanner = WasmStringScanner.create(32);
  if (scanner === null) return t.skip("no WebAssembly SIMD in this runtime");
  for (let n = 20; n < 80; n++) {
    for (const piece of ["\\\"", "\\u0041", "日", "🚀", "\u0001"]) {
      const { bytes, from } = lineOf(enc("a".repeat(n) + piece + "b".repeat(n % 5)), true);
      scanner.reset();
      assert.deepEqual(scanner.tail(bytes, from), stringTailJs(bytes, from), `${n} ${JSON.stringify(piece)}`);
    }
  }
});

test("LazyStringScan gives the byte loop's answers from its first call on, across lines and after a reset", () => {
  const lazy = new LazyStringScan();
  const next = mulberry32(7);
  for (let round = 0; round < 200; round++) {
    const { bytes, from } = lineOf(randomText(next, 1 + Math.floor(next() * 300), round % 4 === 0), round % 5 !== 0);
    if (round % 2 === 0) lazy.reset();
    assert.deepEqual(lazy.tail(bytes, from), stringTailJs(bytes, from), `round ${round}`);
  }
  // A line changed in place after a reset is read again, not from the window of its old bytes.
  const { bytes, from } = lineOf(enc("a".repeat(100)), true);
  assert.deepEqual(lazy.tail(bytes, from), stringTailJs(bytes, from));
  bytes[from + 50] = 0x22;
  lazy.reset();
  assert.deepEqual(lazy.tail(bytes, from), { end: from + 50, clean: true });
});

test("skimLine() cuts the same bytes with the WebAssembly scan as with the byte loop", () => {
  const next = mulberry32(7);
  let cut = 0;
  for (let round = 0; round < 300; round++) {
    const fields: string[] = [];
    const raw: Uint8Array[] = [];
    for (let f = 0; f < 1 + Math.floor(next() * 6); f++) {
      const key = ["text", "content", "id", "label", "output", "usage"][Math.floor(next() * 6)];
      fields.push(`"${key}":"`);
      raw.push(randomText(next, Math.floor(next() * 900), round % 2 === 0));
    }
    const parts: Uint8Array[] = [enc("{")];
    fields.forEach((field, k) => {
      parts.push(enc((k > 0 ? "," : "") + field), raw[k], enc('"'));
    });
    parts.push(enc("}"));
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    for (const chars of [41, 201]) {
      const fast = skimLine(bytes, LEAN_KEPT_KEYS, chars);
      assert.deepEqual(fast, skimLine(bytes, LEAN_KEPT_KEYS, chars, stringTailJs), `round ${round}`);
      if (fast) cut++;
    }
  }
  assert.ok(cut > 50, `some lines were cut (${cut})`);
});
