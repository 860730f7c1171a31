/**
 * The server keeps every session's header for resolving references (each resolution would read
 * them all) until its watcher sees sessions come or go: then a prefix that became ambiguous is
 * refused and a session deleted is not found, as the CLI says.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addSession, userEntry } from "../cli/_harness.ts";
import { testServer } from "./_server.ts";

test("session references resolve against the kept headers, read again once sessions are created or deleted", async () => {
  const server = await testServer();
  try {
    const path = await addSession(server.fs, "abcd1111-0000-4000-8000-000000000001", [userEntry("u1", null, "first")]);
    await server.state.watcher.refresh();
    assert.equal((await server.fetch("/api/sessions/abcd")).status, 200);
    assert.equal((await server.json("/api/sessions/abcd") as { path: string }).path, path);
    // Another session under the same prefix: ambiguous once the watcher has seen it.
    const other = await addSession(server.fs, "abcd2222-0000-4000-8000-000000000002", [userEntry("u1", null, "second")]);
    await server.state.watcher.refresh();
    const ambiguous = await server.fetch("/api/sessions/abcd");
    assert.equal(ambiguous.status, 400, await ambiguous.text());
    assert.equal((await server.fetch("/api/sessions/abcd2")).status, 200);
    await server.fs.remove(other);
    await server.state.watcher.refresh();
    assert.equal((await server.fetch("/api/sessions/abcd2")).status, 404);
    assert.equal((await server.fetch("/api/sessions/abcd")).status, 200);
  } finally {
    await server.close();
  }
});

test("a session made after the headers were kept is found before the watcher reports it", async () => {
  const server = await testServer({ pollMs: { watched: 60_000, unwatched: 60_000 } });
  try {
    await addSession(server.fs, "feed0001-0000-4000-8000-000000000001", [userEntry("u1", null, "first")]);
    assert.equal((await server.fetch("/api/sessions/feed0001")).status, 200);
    await addSession(server.fs, "feed0002-0000-4000-8000-000000000002", [userEntry("u1", null, "second")]);
    assert.equal((await server.fetch("/api/sessions/feed0002")).status, 200);
    assert.equal((await server.fetch("/api/sessions/0000dead")).status, 404);
  } finally {
    await server.close();
  }
});
