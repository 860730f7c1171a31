/**
 * The candidates references are resolved against, as a server keeps them for its life: each
 * session's path, mtime, and of its header only the id and cwd.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { globalCandidates } from "../../../src/query/resolve/session-ref.ts";
import { addSession, memoryFs, userEntry } from "../../cli/_harness.ts";
import { testEnv } from "../_env.ts";

test("globalCandidates() keeps of each header only the id and cwd", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "0c1d2e3f-0000-4000-8000-000000000001", [userEntry("u1", null, "hi")], { cwd: "/home/u/proj" });
  const [candidate, ...rest] = await globalCandidates(testEnv(fs).env);
  assert.deepEqual(rest, []);
  assert.equal(candidate.path, path);
  assert.deepEqual(candidate.header, { id: "0c1d2e3f-0000-4000-8000-000000000001", cwd: "/home/u/proj" });
});
