/**
 * The byte filter: its WebAssembly is what byte-filter.wat assembles to, it finds exactly the
 * bytes of its set (a superset only for sets of more than 8 high nibbles), in any window, and
 * `scanLine` says the same of a line whether it loops over the bytes or asks the filter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ByteFilter, FILTER_WINDOW } from "../../../src/core/redact/byte-filter.ts";
import { BYTE_FILTER_WASM } from "../../../src/core/redact/byte-filter-wasm.ts";
import { LINE_HAS_WORD, LINE_MAY_HOLD_SECRET, LineWords, scanLine } from "../../../src/core/redact/mod.ts";
import { hostileCorpus } from "../_hostile-corpus.ts";
import { mulberry32 } from "../../../scripts/seeded-random.ts";

test("byte-filter-wasm.ts holds what byte-filter.wat assembles to (else run `npx tsx scripts/build-wasm.ts`)", async (t) => {
  let build;
  try {
    build = await import("../../../scripts/build-wasm.ts");
  } catch (error) {
    return t.skip(`wabt does not load here (${(error as Error).message})`);
  }
  assert.equal(BYTE_FILTER_WASM, build.base64(await build.assemble(build.BYTE_FILTER_WAT)));
});

test("ByteFilter finds the bytes of its set, in order, in every window, those with neighbours only next to them", (t) => {
  const next = mulberry32(3);
  if (ByteFilter.create(new Uint8Array(256).fill(1)) === null) return t.skip("no WebAssembly SIMD in this runtime: scanLine loops over the bytes");
  const lengths = [0, 1, 15, 16, 17, 255, 256, 1000, FILTER_WINDOW - 1, FILTER_WINDOW, FILTER_WINDOW + 17, 3 * FILTER_WINDOW + 5];
  const pick = (from: number[], n: number) => Array.from({ length: n }, () => from[Math.floor(next() * from.length)]);
  for (let round = 0; round < 48; round++) {
    // Sets of a few bytes up to most of them; some within 8 high nibbles (found exactly).
    const table = new Uint8Array(256);
    const highs = round % 2 === 0 ? [2, 3, 4, 5, 6, 7, 0xc, 0xe] : Array.from({ length: 16 }, (_, h) => h);
    const size = 1 + Math.floor(next() * (round < 24 ? 12 : 200));
    for (let k = 0; k < size; k++) table[(highs[Math.floor(next() * highs.length)] << 4) | Math.floor(next() * 16)] = 1 + Math.floor(next() * 7);
    const members = [...table.keys()].filter((b) => table[b] !== 0);
    const letters = Array.from({ length: 16 }, (_, k) => 0x61 + k);
    const neighbours = round % 3 === 0 ? {} : { afterOnly: pick(members, round % 4 === 1 ? 40 : 3), previous: pick(letters, 4), beforeOnly: pick(members, round % 4 === 2 ? 40 : 3), next: pick(letters, 4) };
    const exact = new Set(members.map((b) => b >> 4)).size <= 8;
    const filter = ByteFilter.create(table, neighbours)!;
    const length = lengths[round % lengths.length];
    const bytes = Uint8Array.from({ length }, () => (next() < 0.3 ? letters[Math.floor(next() * 16)] : next() < 0.5 ? 0x20 + Math.floor(next() * 0x60) : Math.floor(next() * 256)));
    const found: number[] = [];
    for (let from = 0; from < bytes.length; from += FILTER_WINDOW) {
      const count = filter.find(bytes, from);
      for (let k = 0; k < count; k++) found.push(from + filter.found[k]);
    }
    const { previous = [], next: following = [] } = neighbours as Record<string, number[]>;
    // Lists of more than 8 high nibbles are left out by the filter.
    const exactly = (list: number[] = []) => (new Set(list.map((b) => b >> 4)).size <= 8 ? list : []);
    const afterOnly = exactly((neighbours as Record<string, number[]>).afterOnly);
    const beforeOnly = exactly((neighbours as Record<string, number[]>).beforeOnly);
    const wanted = (i: number) =>
      table[bytes[i]] !== 0 &&
      (!afterOnly.includes(bytes[i]) || (i > 0 && previous.includes(bytes[i - 1]))) &&
      (!beforeOnly.includes(bytes[i]) || (i + 1 < bytes.length && following.includes(bytes[i + 1])));
    const expected = [...bytes.keys()].filter(wanted);
    if (exact && round % 3 === 0) assert.deepEqual(found, expected, `round ${round}`);
    else {
      // With neighbours, sets of the same high nibbles may share bits, so again a few too many.
      assert.deepEqual(found, [...found].sort((a, b) => a - b), `round ${round}: in order`);
      const set = new Set(found);
      assert.ok(expected.every((i) => set.has(i)), `round ${round}: a wanted byte was missed`);
      assert.ok(found.every((i) => table[bytes[i]] !== 0 || !exact), `round ${round}: a byte outside the set`);
    }
  }
});

test("scanLine() says the same of a line whether it loops over its bytes or asks the filter", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const wordSets = [undefined, new LineWords([encode("ann"), encode("/home/ann")]), new LineWords([encode("ünï"), encode("δ"), encode("日本"), encode("\u{1f600}"), encode("Ωx")])];
  // Lines under 128 bytes are looped over; the same line padded with spaces (which no rule looks
  // at) past that threshold goes through the filter, and must get the same flags.
  const lines: string[] = [
    '{"t":"Authorization: Bearer abcdef1234567890ABCDEF.ghij"}', '{"t":"API_TOKEN\\t=abcd1234"}', '{"t":"https:\\/\\/bob:hunter2@git.example.com"}',
    '{"t":"-----BEGIN RSA PRIVATE KEY-----"}', '{"t":"AKIAIOSFODNN7EXAMPLE"}', '{"cwd":"/home/ann/x <b>"}', '{"t":"ünïcode δ 日本 \u{1f600} Ωx"}',
    '{"t":"a = b + c, y-axis by the bay"}', '{"t":"xoxb-123"}', '{"t":"gh_ github_pat_1"}', '{"t":"eyJhbGciOi"}',
    // Issue 16's anchors: \u escapes, SG., a Slack webhook's /T, password, sk_/npm_/hf_/glpat-, lower case names.
    '{"t":"\\u0067\\u0068p_ \\u001b[0m \\u00e9"}', '{"t":"SG.x aSGb"}', '{"t":"https:\\/\\/hooks.slack.com\\/services\\/T0 \\/T1"}',
    '{"t":"\\"password\\": \\"x\\" Passwd news"}', '{"t":"sk_live rk_ npm_ hf_ glpat- \\"api_key\\":"}', '{"t":"api_key = 1, token=2, tokens=3"}',
  ];
  const made = lines.length;
  for (const c of hostileCorpus()) {
    if (c.bytes.length > 2e6) continue;
    for (const line of new TextDecoder().decode(c.bytes).split("\n")) if (encode(line).length < 128 && lines.length < 5000) lines.push(line);
  }
  let secrets = 0;
  let words = 0;
  for (const [n, line] of lines.entries()) {
    for (const set of wordSets) {
      const looped = scanLine(encode(line), set);
      assert.equal(scanLine(encode(line + " ".repeat(300)), set), looped, line);
      // Across the end of a window too.
      if (n < made) assert.equal(scanLine(encode(" ".repeat(FILTER_WINDOW - 5) + line), set), looped, `${line} across a window`);
      if (looped & LINE_MAY_HOLD_SECRET) secrets++;
      if (looped & LINE_HAS_WORD) words++;
    }
  }
  assert.ok(secrets > 10 && words >= 2, `${secrets} lines with secrets, ${words} with words: the lines test too little`);
});

test("scanLine() says what the loop says on text dense in the anchors the filter's second look judges (-, =, A, b, B), at every place near a window's edges", () => {
  const next = mulberry32(22);
  const encode = (text: string) => new TextEncoder().encode(text);
  // Pieces that make or nearly make `sk-`, `xox?-`, `glpat-`, `NAME = `, `\t=`, `AKIA`, `bearer`.
  const pieces = ["-", "=", " = ", "\\t=", "A", "AK", "AKIA", "AIza", "b", "B", "bear", "beare", "BeArEr", "bearer", "k", "t", "x", "xox", "xoxb", "sk", "glpat", "TOKEN", "token", "SECRET", "PASSWD", "api_key", "e", " ", "\\t", "\\", "r", "ar", "T", "d", "y", "S", "q", "é"];
  const text = (n: number) => Array.from({ length: n }, () => pieces[Math.floor(next() * pieces.length)]).join("");
  let secrets = 0;
  let quiet = 0;
  for (let round = 0; round < 600; round++) {
    const line = `{"t":"${text(4 + Math.floor(next() * 20))}"}`;
    const looped = scanLine(encode(line));
    if (encode(line).length < 128) {
      // Through the filter: padded past the loop's threshold, and cut by a window's end at every place.
      assert.equal(scanLine(encode(line + " ".repeat(200))), looped, line);
      const shift = round % 24;
      assert.equal(scanLine(encode("q".repeat(FILTER_WINDOW - shift) + line)), looped, `${line} at ${shift} before a window's end`);
      assert.equal(scanLine(encode(" ".repeat(FILTER_WINDOW - shift) + line)), looped, `${line} after spaces, at ${shift} before a window's end`);
    }
    if (looped & LINE_MAY_HOLD_SECRET) secrets++;
    else quiet++;
  }
  assert.ok(secrets > 50 && quiet > 50, `${secrets} lines flagged, ${quiet} not: the text tests too little`);
  // Each secret of these kinds, cut by a window's end at every place of it.
  const known = ['{"t":"API_TOKEN  \\t = abc123"}', '{"t":"x sk-abc"}', '{"t":"xoxb-1"}', '{"t":"glpat-x"}', '{"t":"AKIAIOSFODNN7EXAMPLE"}', '{"t":"Authorization: bEaReR x"}', '{"t":"token=1"}'];
  for (const line of known) {
    const looped = scanLine(encode(line));
    assert.ok(looped & LINE_MAY_HOLD_SECRET, line);
    for (let shift = 0; shift <= line.length; shift++) {
      for (const pad of ["q", " "]) assert.equal(scanLine(encode(pad.repeat(FILTER_WINDOW - shift) + line)), looped, `${line} at ${shift} before a window's end`);
    }
  }
});
