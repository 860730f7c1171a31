/**
 * `canonicalLine` vouches for a line only when JSON.stringify(JSON.parse(line)) gives its bytes
 * back, finds every such line of what JSON.stringify writes, and gives the top-level members'
 * value spans; the same answers with the WebAssembly string scan and the byte loop.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalLine } from "../../../src/core/read/canonical-line.ts";
import { stringTailJs } from "../../../src/core/read/string-scan.ts";
import { mulberry32 } from "../../../scripts/seeded-random.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** What a full parse and stringify give back, or undefined when the line does not parse. */
function roundTrip(b: Uint8Array): string | undefined {
  try {
    return JSON.stringify(JSON.parse(new TextDecoder().decode(b)));
  } catch {
    return undefined;
  }
}

/** Lines JSON.stringify does not write as they are (or that do not parse), each a way to get it wrong. */
const NOT_CANONICAL = [
  '{"type": "x"}', '{ "type":"x"}', '{"type":"x"} ', '{"type":"x"}\r', '{"a":[1, 2]}', '{"a":"\\/"}', '{"a":"\\u00e9"}', '{"a":"\\u00E9"}',
  '{"a":"\\u000a"}', '{"a":"\\u001F"}', '{"a":"\\ud83d\\ude80"}', '{"a":1.0}', '{"a":1e5}', '{"a":1E+21}', '{"a":-0}',
  '{"a":01}', '{"a":0.10}', '{"a":1234567890123456789}', '{"a":.5}', '{"a":+1}', '{"a":1,"a":2}', '{"a":{"b":1,"b":1}}', '{"b":1,"1":2}',
  '{"a":tru}', '{"a":nul}', '{"a":True}', '{"a":"x}', '{"a":"\t"}', '{"a":1', '{"a":1}}',
  '{"a":[1,]}', '{"a":1,}', '{,}', '{"a"}', '{"a"1}', '{"":1,"":2}', '{"a":"\u2028"', '',
];

/** Lines JSON.stringify writes, each a way to get it wrong the other way. */
const CANONICAL: unknown[] = [
  {}, { type: "x" }, { a: [] }, { a: {} }, { a: [1, [2, [3, {}]]] }, { a: "\\\"\n\t\b\f\r\u0001\u001f\u007f é 日本 🚀 \u2028" },
  { a: 0 }, { a: -1 }, { a: 1.5 }, { a: -1.5e-7 }, { a: 1e21 }, { a: 123456789012345 }, { a: 1234567890123456 }, { a: 0.1 }, { a: 5e-324 },
  { a: true, b: false, c: null }, { "": 1 }, { "01": 1, "-1": 2, "1.5": 3 }, { a: { a: { a: 1 } }, b: { a: 2 } }, { proto: 1, __proto: 2 },
];

for (const [name, tail] of [["WebAssembly", undefined], ["byte loop", stringTailJs]] as const) {
  test(`canonicalLine() with the ${name} refuses every line JSON.stringify would write otherwise`, () => {
    for (const line of NOT_CANONICAL) {
      const b = enc(line);
      assert.equal(canonicalLine(b, tail), null, line);
      assert.notEqual(roundTrip(b), line, `the case itself: ${line}`);
    }
    // Written back as they are, but refused all the same (left to the parser: rare): a lone
    // surrogate's escape, a key that is an array index, `__proto__`, a line that is no object.
    for (const line of ['{"a":"\\ud800"}', '{"a":{"0":1}}', '{"__proto__":{}}', "[1]", '"x"']) {
      assert.equal(roundTrip(enc(line)), line, `the case itself: ${line}`);
      assert.equal(canonicalLine(enc(line), tail), null, line);
    }
    // Bad UTF-8 inside a string.
    assert.equal(canonicalLine(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), tail), null);
  });

  test(`canonicalLine() with the ${name} vouches for what JSON.stringify writes, and finds the members`, () => {
    for (const value of CANONICAL) {
      const text = JSON.stringify(value);
      assert.notEqual(canonicalLine(enc(text), tail), null, text);
    }
    const text = '{"type":"compaction","x":{"id":"inner","parentId":"no"},"id":"c1","parentId":null,"firstKeptEntryId":"日本"}';
    const b = enc(text);
    const members = canonicalLine(b, tail)!;
    assert.deepEqual(Object.fromEntries(Object.entries(members).map(([k, s]) => [k, dec(b.subarray(s.start, s.end))])), {
      type: '"compaction"', id: '"c1"', parentId: "null", firstKeptEntryId: '"日本"',
    });
  });

  test(`canonicalLine() with the ${name} never vouches for a line that does not round-trip (random lines)`, () => {
    const next = mulberry32(22);
    const atoms = ['"a"', '"b"', '"é"', '"\\u00e9"', '"\\n"', '"\\u0001"', '"\\/"', "1", "1.0", "-0", "0", "12", "1e3", "true", "null", "[]", "{}", " ", ",", ":", "[", "]", "{", "}"];
    let vouched = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = '{"a":';
      const parts = 1 + Math.floor(next() * 8);
      for (let k = 0; k < parts; k++) text += atoms[Math.floor(next() * atoms.length)];
      text += "}";
      const b = enc(text);
      if (canonicalLine(b, tail) === null) continue;
      vouched++;
      assert.equal(roundTrip(b), text);
    }
    assert.ok(vouched > 100, `vouched for ${vouched}`);
  });
}
