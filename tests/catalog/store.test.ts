/**
 * A stored state read back from its JSON text: what `loadRows` hands on is checked as a record
 * loaded in full is, so a damaged state is left out (and its file read again) either way.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { emptyUsageState, pushRow } from "../../src/core/digest/usage-state.ts";
import { encodeState, storedState } from "../../src/catalog/stored-state.ts";

test("storedState() reads back what encodeState() wrote, and refuses text that is not a sound state", () => {
  const data = emptyUsageState();
  pushRow(data, ["assistant", "a1b2c3d4", "2025-12-16T00:00:00.000Z", "anthropic/claude", 100, 20, 0, 0, 0.0003, 0.0003, 0, 0, 0.0006]);
  const state = { header: { id: "s1", timestamp: "2025-12-16T00:00:00.000Z", cwd: "/p" }, rejected: false, data };
  const text = JSON.stringify(encodeState(usageDigest, state));
  const back = storedState(usageDigest, text);
  assert.deepEqual(back?.header, state.header);
  assert.deepEqual([...(back?.data as typeof data).numbers], [...data.numbers]);
  const damaged = [
    text.slice(0, -1),
    "null",
    JSON.stringify({ ...JSON.parse(text), rejected: "no" }),
    JSON.stringify({ ...JSON.parse(text), header: 7 }),
    JSON.stringify({ ...JSON.parse(text), data: { keys: [], numbers: [1, 2], odd: [] } }),
    JSON.stringify({ ...JSON.parse(text), data: null }),
  ];
  for (const bad of damaged) assert.equal(storedState(usageDigest, bad), undefined, bad);
});
