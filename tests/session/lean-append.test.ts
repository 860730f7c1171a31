/**
 * The lean append (issue 22: `label`/`name` on a 1.2 GB session): knowing only ids, leaf and
 * end, it writes exactly the line `SessionManager.open` and an append would write.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SessionTree } from "../../src/core/tree/session-tree.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { labelEntry, sessionInfoEntry } from "../../src/session/entry-builders.ts";
import { appendLean, readLeanLabels, readLeanSession } from "../../src/session/lean-append.ts";
import { parseSession } from "../../src/core/read/read-session.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { bytes, readText } from "./_fixtures.ts";

const T = "2024-01-01T00:00:00.000Z";
const line = (value: Record<string, unknown>) => JSON.stringify(value) + "\n";
/** A small v3 session: messages, labels set, moved and cleared, a name, a malformed line and a side branch. */
const SMALL = [
  line({ type: "session", version: 3, id: "s1", timestamp: T, cwd: "/work" }),
  line({ type: "message", id: "a1", parentId: null, timestamp: T, message: { role: "user", content: "hi", timestamp: 1 } }),
  line({ type: "message", id: "a2", parentId: "a1", timestamp: T, message: { role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 2 } }),
  line({ type: "label", id: "l1", parentId: "a2", timestamp: T, targetId: "a1", label: "start" }),
  "{not json\n",
  line({ type: "label", id: "l2", parentId: "l1", timestamp: T, targetId: "a2", label: "reply" }),
  line({ type: "message", id: "b1", parentId: "a1", timestamp: T, message: { role: "user", content: "other way", timestamp: 3 } }),
  line({ type: "label", id: "l3", parentId: "b1", timestamp: T, targetId: "a2" }),
  line({ type: "session_info", id: "n1", parentId: "l3", timestamp: T, name: "small" }),
].join("");
const PATH = "/s/small.jsonl";

/** Pinned clock and ids, the same for both paths. */
function deps() {
  let n = 0;
  return { clock: () => new Date(Date.parse(T) + 1000), newId: () => `new${++n}` };
}

async function disk(content: string): Promise<MemoryFileSystem> {
  const fs = new MemoryFileSystem();
  await fs.mkdir("/s", { recursive: true });
  await fs.append(PATH, bytes(content));
  return fs;
}

/** The file after one append through `SessionManager.open` and through the lean path. */
async function both(content: string, full: (m: SessionManager) => Promise<string>, lean: Parameters<typeof appendLean>[2], between?: string) {
  const fullFs = await disk(content);
  const manager = await SessionManager.open(PATH, undefined, { fs: fullFs, ...deps() });
  if (between) await fullFs.append(PATH, bytes(between));
  const fullId = await full(manager);
  const leanFs = await disk(content);
  const session = (await readLeanSession(leanFs, PATH))!;
  if (between) await leanFs.append(PATH, bytes(between));
  const leanEntry = await appendLean(leanFs, session, lean, deps());
  return { full: await readText(fullFs, PATH), lean: await readText(leanFs, PATH), fullId, leanId: leanEntry.id, session };
}

describe("appendLean()", () => {
  it("writes the same label line as SessionManager.open + appendLabelChange", async () => {
    const r = await both(SMALL, (m) => m.appendLabelChange("b1", "mine"), (base) => labelEntry(base, "b1", "mine"));
    assert.equal(r.lean, r.full);
    assert.equal(r.leanId, r.fullId);
    assert.equal(r.session.leafId, r.leanId);
  });

  it("writes the same cleared label and the same name", async () => {
    const cleared = await both(SMALL, (m) => m.appendLabelChange("a1", undefined), (base) => labelEntry(base, "a1", undefined));
    assert.equal(cleared.lean, cleared.full);
    const named = await both(SMALL, (m) => m.appendSessionInfo("renamed"), (base) => sessionInfoEntry(base, "renamed"));
    assert.equal(named.lean, named.full);
  });

  it("after a torn last line and after a line another writer appended, still the same file", async () => {
    const torn = await both(SMALL + '{"type":"message","id":"t', (m) => m.appendSessionInfo("x"), (base) => sessionInfoEntry(base, "x"));
    assert.equal(torn.lean, torn.full);
    const theirs = line({ type: "session_info", id: "o1", parentId: "n1", timestamp: T, name: "theirs" });
    const followed = await both(SMALL, (m) => m.appendSessionInfo("ours"), (base) => sessionInfoEntry(base, "ours"), theirs);
    assert.equal(followed.lean, followed.full);
    assert.match(followed.lean!, /"parentId":"o1"/);
    assert.equal(followed.session.ids.has("o1"), true);
  });

  it("readLeanLabels() resolves labels as a full read does, and readLeanSession() leaves an old-format file to the full path", async () => {
    const fs = await disk(SMALL);
    const session = (await readLeanSession(fs, PATH))!;
    assert.deepEqual([...(await readLeanLabels(fs, session))], [...new SessionTree(parseSession(SMALL).entries).labels]);
    assert.deepEqual([...session.ids], ["a1", "a2", "l1", "l2", "b1", "l3", "n1"]);
    const old = await disk(line({ type: "session", id: "s0", timestamp: T, cwd: "/work" }) + line({ type: "message", timestamp: T, message: { role: "user", content: "v1", timestamp: 1 } }));
    assert.equal(await readLeanSession(old, PATH), null);
  });
});
