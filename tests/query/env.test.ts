/**
 * `createQueryEnv()`: the cwd, agent dir and session dir a query acts for, a shared catalog left
 * open, and remarks reported through callbacks instead of printed.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Catalog } from "../../src/catalog/catalog.ts";
import { createQueryEnv } from "../../src/query/env.ts";
import { QueryError } from "../../src/query/errors.ts";
import { resolveSessionRef } from "../../src/query/resolve/session-ref.ts";
import { addSession, AGENT_DIR, CWD, HOME, memoryFs, sessionDir, userEntry, writeText } from "../cli/_harness.ts";
import { testEnv } from "./_env.ts";

const storage = { env: () => undefined, home: HOME, processCwd: CWD };

test("createQueryEnv() resolves cwd and agent dir against the process cwd, and the default session dir of that cwd", async () => {
  const env = createQueryEnv({ fs: memoryFs(), storage, cwd: "sub" });
  assert.equal(env.cwd, `${CWD}/sub`);
  assert.equal(env.agentDir, AGENT_DIR);
  assert.deepEqual(await env.sessionDir(), { dir: sessionDir(`${CWD}/sub`), source: "default", custom: false });
});

test("createQueryEnv() hands a shared catalog to every call and never closes it", async () => {
  let closed = 0;
  const catalog = { close: () => void closed++ } as unknown as Catalog;
  const env = createQueryEnv({ fs: memoryFs(), storage, catalog });
  assert.equal(await env.withCatalog(async (c) => c), catalog);
  assert.equal(await env.withCatalog(async (c) => c), catalog);
  assert.equal(closed, 0);
});

test("createQueryEnv() reports a missing --session-dir as a notice and settings problems as warnings", async () => {
  const fs = memoryFs();
  await writeText(fs, `${AGENT_DIR}/settings.json`, "{ broken");
  const { env, reported } = testEnv(fs);
  await env.settings();
  assert.ok(reported.length > 0);
  for (const line of reported) assert.match(line, /^warn: Ignoring \/home\/u\/\.pi\/agent\/settings\.json: line 1, column \d+: /);
  const missing = createQueryEnv({ fs, storage, sessionDir: "/nowhere", report: { notice: (m) => reported.push(m) } });
  await missing.sessionDir();
  assert.equal(reported.at(-1), "--session-dir /nowhere does not exist");
});

test("createQueryEnv() refuses a --session-dir that is a file with a QueryError (exit 2)", async () => {
  const fs = memoryFs();
  await writeText(fs, "/tmp/file", "x");
  const env = createQueryEnv({ fs, storage, sessionDir: "/tmp/file" });
  await assert.rejects(env.sessionDir(), (e) => e instanceof QueryError && e.exitCode === 2 && e.code === "bad-option");
});

test("createQueryEnv({ pathRefs: false }) refuses a session reference that is a path, and still resolves ids", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "abcd1234", [userEntry("u1", null, "hello")]);
  const env = createQueryEnv({ fs, storage, pathRefs: false });
  for (const ref of [path, "../x.jsonl", "a\\b", "x.jsonl"]) {
    await assert.rejects(resolveSessionRef(env, ref), (e) => e instanceof QueryError && e.code === "bad-reference" && e.exitCode === 2, ref);
  }
  assert.equal(await resolveSessionRef(env, "abcd"), path);
  assert.equal(await resolveSessionRef(createQueryEnv({ fs, storage }), path), path);
});
