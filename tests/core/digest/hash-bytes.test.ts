/** hashBytes() and its two halves: a fingerprint started on a shared prefix and finished on each rest. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Fingerprint, hashBytes, hashRest, hashRestAscii, hashStart } from "../../../src/core/digest/hash-bytes.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

test("hashBytes() gives the fingerprints it always gave", () => {
  assert.equal(hashBytes(bytes("pi-session root\n0197a3f2-1c2d-7e00-8000-000000000001")), "acb7154dc46579bb");
  assert.notEqual(hashBytes(bytes("abc")), hashBytes(bytes("abd")));
});

test("hashRest(hashStart(prefix, length), rest) equals hashBytes(prefix + rest) at every cut", () => {
  const text = bytes("pi-session span\n0197a3f2\nä€😀\ntool");
  for (let cut = 0; cut <= text.length; cut++) {
    assert.equal(hashRest(hashStart(text.subarray(0, cut), text.length), text.subarray(cut)), hashBytes(text), `cut at ${cut}`);
  }
});

test("one started state serves every rest of the same total length", () => {
  const start = hashStart(bytes("prefix-"), 10);
  for (const rest of ["abc", "xyz", "☃"]) assert.equal(hashRest(start, bytes(rest)), hashBytes(bytes(`prefix-${rest}`)));
});

test("hashRestAscii() equals hashRest() of the text's bytes when it is ASCII, and declines any other text", () => {
  const start = hashStart(bytes("pi-session span\ns\n"), 19 + 13);
  assert.equal(hashRestAscii(start, "a1b2c3d4\ntool"), hashRest(start, bytes("a1b2c3d4\ntool")));
  assert.equal(hashRestAscii(hashStart(bytes(""), 0), ""), hashBytes(bytes("")));
  assert.equal(hashRestAscii(start, "a1b2c3\u00e9\ntool"), undefined);
  assert.equal(hashRestAscii(start, "a1b2c3\u007f\ntool"), hashRest(start, bytes("a1b2c3\u007f\ntool")));
});

test("Fingerprint tells apart how texts are cut, a number's last bit and sign, and the order of what it is fed", () => {
  const print = (...parts: (string | number)[]) => parts.reduce((f, part) => (typeof part === "string" ? f.text(part) : f.number(part)), new Fingerprint()).digest();
  assert.equal(print("a.jsonl", 12, 1.5), print("a.jsonl", 12, 1.5));
  assert.match(print(), /^[0-9a-f]{16}$/);
  const seen = new Set([
    print("ab", "c"),
    print("a", "bc"),
    print("abc"),
    print(1_767_225_600_000.25),
    print(1_767_225_600_000.25 + 2 ** -12),
    print(0),
    print(-0),
    print("x", 1),
    print(1, "x"),
  ]);
  assert.equal(seen.size, 9);
});

test("Fingerprint.numbers feeds an array as number() feeds each, and value() is the digest's low 53 bits", () => {
  const values = Float64Array.from([3, -0.5, 1_767_225_600_000.25, NaN, 1e-300]);
  const byOne = [...values].reduce((f, x) => f.number(x), new Fingerprint().text("k"));
  const byArray = new Fingerprint().text("k").numbers(values);
  assert.equal(byArray.digest(), byOne.digest());
  // A view into a larger buffer reads only its own numbers.
  const wide = new Float64Array(9);
  wide.set(values, 2);
  assert.equal(new Fingerprint().text("k").numbers(wide.subarray(2, 7)).digest(), byOne.digest());
  assert.equal(byArray.value(), Number(BigInt(`0x${byArray.digest()}`) & ((1n << 53n) - 1n)));
  assert.notEqual(new Fingerprint().numbers(Float64Array.from([1, 2])).value(), new Fingerprint().numbers(Float64Array.from([2, 1])).value());
});
