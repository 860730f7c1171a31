/**
 * The async `SessionManager` takes pi's positional argument forms and means by them what pi
 * means (issue 18: they used to be silently ignored): `open(path, dir, cwdOverride)`,
 * `list(cwd, dir, onProgress)`, `listAll(dir)` and `listAll(dir, onProgress)`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { SessionManager } from "../../src/session/session-manager.ts";
import { user } from "./_fixtures.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-piforms-"));
after(() => rmSync(work, { recursive: true, force: true }));

async function sessionIn(dir: string, text: string): Promise<SessionManager> {
  const session = SessionManager.create("/work/p", dir);
  await session.appendMessage(user(text));
  return session;
}

describe("SessionManager with pi's positional arguments", () => {
  it("open(path, dir, cwdOverride) uses the override as the cwd", async () => {
    const session = await sessionIn(join(work, "open"), "hi");
    const reopened = await SessionManager.open(session.getSessionFile()!, undefined, "/work/elsewhere");
    assert.equal(reopened.getCwd(), "/work/elsewhere");
    assert.equal(reopened.getEntries().length, 1);
  });

  it("list(cwd, dir, onProgress) calls onProgress", async () => {
    const dir = join(work, "list");
    await sessionIn(dir, "a");
    await sessionIn(dir, "b");
    const calls: [number, number][] = [];
    const sessions = await SessionManager.list("/work/p", dir, (loaded, total) => calls.push([loaded, total]));
    assert.equal(sessions.length, 2);
    assert.deepEqual(calls, [[1, 2], [2, 2]]);
  });

  it("listAll(dir) lists that dir, not the agent dir's projects", async () => {
    const dir = join(work, "all");
    const session = await sessionIn(dir, "only");
    const calls: number[] = [];
    assert.deepEqual((await SessionManager.listAll(dir)).map((s) => s.path), [session.getSessionFile()]);
    assert.deepEqual((await SessionManager.listAll(dir, (loaded) => calls.push(loaded))).map((s) => s.path), [session.getSessionFile()]);
    assert.deepEqual(calls, [1]);
  });
});
