/** defaultOtelWorkers: the worker threads an `otel` run starts by default, by the number of cores. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { defaultOtelWorkers } from "../../src/query/otel.ts";

test("defaultOtelWorkers() starts none on two cores or fewer, one per core past two, at most two", () => {
  assert.deepEqual([1, 2, 3, 4, 8, 64].map(defaultOtelWorkers), [0, 0, 1, 2, 2, 2]);
});
