/**
 * The packed candidates a server keeps for its life give back what was packed.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Candidate, CandidatePacker, candidateSet, KeptCandidates } from "../../../src/query/resolve/kept-candidates.ts";

const list: Candidate[] = [
  { path: "/s/--home-u-a--/2025_1.jsonl", header: { id: "0a1b2c3d-0000-4000-8000-000000000001", cwd: "/home/u/a" }, mtimeMs: 1717000000123.5 },
  { path: "/s/--home-u-b--/2025_2.jsonl", header: { id: "0a1b2c3d-0000-4000-8000-000000000002", cwd: "/home/u/b" }, mtimeMs: 0 },
  { path: "/s/--home-u-a--/2025_3.jsonl", header: { id: "x", cwd: "/home/u/a" }, mtimeMs: 5 },
  { path: "plain.jsonl", header: { id: "été-ü", cwd: 42 as unknown as string }, mtimeMs: 7 },
  { path: "/s/dé🙂/4.jsonl", header: { id: "🙂", cwd: "/home/🙂" }, mtimeMs: 8 },
];

test("KeptCandidates gives back every path, id, cwd and mtime it packed (a cwd that is not a string as none)", () => {
  const kept = new KeptCandidates(list);
  const plain = candidateSet(list);
  assert.equal(kept.length, list.length);
  for (let i = 0; i < list.length; i++) {
    assert.equal(kept.path(i), plain.path(i));
    assert.equal(kept.id(i), plain.id(i));
    assert.equal(kept.mtimeMs(i), plain.mtimeMs(i));
    assert.equal(kept.cwd(i), typeof plain.cwd(i) === "string" ? plain.cwd(i) : undefined);
  }
});

test("KeptCandidates of no candidate is empty", () => {
  assert.equal(new KeptCandidates([]).length, 0);
});

test("CandidatePacker packs candidates put in any order at their places, leaving out the places never put", () => {
  const packer = new CandidatePacker(list.length + 2);
  // Places 0 and 3 are files that were not sessions; the others finish reading out of order.
  const places = [5, 1, 4, 2, 6];
  for (const k of [4, 0, 2, 1, 3]) packer.put(places[k], list[k]);
  const kept = packer.pack();
  const order = [1, 3, 2, 0, 4].map((k) => list[k]);
  const plain = candidateSet(order);
  assert.equal(kept.length, order.length);
  for (let i = 0; i < order.length; i++) {
    assert.equal(kept.path(i), plain.path(i));
    assert.equal(kept.id(i), plain.id(i));
    assert.equal(kept.mtimeMs(i), plain.mtimeMs(i));
    assert.equal(kept.cwd(i), typeof plain.cwd(i) === "string" ? plain.cwd(i) : undefined);
  }
});
