/**
 * Tests for `fork` and `clone`: the new file's header and entries (pi 1.6's
 * createBranchedSession), placement beside the source or under `--cwd`, and refusals.
 * @module
 */
import assert from "node:assert/strict";
import { chmod, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { nodeFileSystem } from "../../src/io/node.ts";
import { addSession, assistantEntry, CWD, fingerprint, jsonl, header, memoryFs, NOW, readOnlyFs, readText, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

const label = (id: string, parentId: string, targetId: string, text: string) => ({ type: "label", id, parentId, timestamp: "2025-06-01T10:00:05.000Z", targetId, label: text });
const model = (id: string, parentId: string | null) => ({ type: "model_change", id, parentId, timestamp: "2025-06-01T10:00:00.500Z", provider: "anthropic", modelId: "claude-test" });

/** u1 -> a1 -> L(label on u1) -> u2 -> a2, and a second branch a1 -> u3 (the last line, so the active leaf). */
const ENTRIES = [
  userEntry("u1", null, "first"),
  assistantEntry("a1", "u1", "one"),
  label("l1", "a1", "u1", "start"),
  userEntry("u2", "l1", "second"),
  assistantEntry("a2", "u2", "two"),
  userEntry("u3", "a1", "other branch"),
];

async function setup() {
  const fs = memoryFs();
  const source = await addSession(fs, "src-1", ENTRIES);
  return { fs, source };
}

async function linesOf(fs: Parameters<typeof readText>[0], path: string) {
  return (await readText(fs, path)).trimEnd().split("\n").map((l) => JSON.parse(l));
}

function newFiles(before: string[], after: string[]): string[] {
  return after.filter((name) => !before.includes(name));
}

describe("fork", () => {
  it("fork --at writes root..entry beside the source, labels re-emitted at the end", async () => {
    const { fs, source } = await setup();
    const untouched = await fingerprint(fs, source);
    const r = await runCli(["fork", "src-1", "--at", "a2"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const path = r.stdout.trim();
    assert.equal(path.slice(0, path.lastIndexOf("/")), sessionDir());
    assert.ok(path.endsWith(".jsonl") && path.includes(NOW.toISOString().replace(/[:.]/g, "-")));
    const [head, ...entries] = await linesOf(fs, path);
    assert.deepEqual(Object.keys(head), ["type", "version", "id", "timestamp", "cwd", "parentSession"]);
    assert.deepEqual({ ...head, id: "?" }, { type: "session", version: 3, id: "?", timestamp: NOW.toISOString(), cwd: CWD, parentSession: source });
    assert.deepEqual(entries.map((e) => [e.type, e.id, e.parentId]).slice(0, 4), [
      ["message", "u1", null],
      ["message", "a1", "u1"],
      ["message", "u2", "a1"],
      ["message", "a2", "u2"],
    ]);
    assert.deepEqual({ ...entries[4], id: "?" }, { ...label("?", "a2", "u1", "start") });
    assert.equal(await fingerprint(fs, source), untouched);
    assert.equal((await fs.stat(path))?.mode, 0o600);
  });

  it("fork --json prints path, id, parentSession and leafId", async () => {
    const { fs, source } = await setup();
    const r = await runCli(["fork", source, "--at", "u3", "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const [head, ...entries] = await linesOf(fs, out.path);
    assert.deepEqual(out, { schemaVersion: 1, path: out.path, id: head.id, parentSession: source, leafId: entries[entries.length - 1].id });
    assert.deepEqual(entries.map((e) => e.id).slice(0, 3), ["u1", "a1", "u3"]);
  });

  it("fork and clone with --cwd put the session in that directory's sessions", async () => {
    const { fs, source } = await setup();
    // The SPEC's `fork <ref> --cwd DIR` and the global `--cwd DIR fork <ref>` are one flag.
    for (const argv of [["fork", source, "--at", "label:start", "--cwd", "/other/place"], ["--cwd", "/other/place", "clone", source]]) {
      const r = await runCli(argv, { fs });
      assert.equal(r.code, 0, r.stderr);
      const path = r.stdout.trim();
      assert.equal(path.slice(0, path.lastIndexOf("/")), sessionDir("/other/place"));
      const [head] = await linesOf(fs, path);
      assert.equal(head.cwd, "/other/place");
      assert.equal(head.parentSession, source);
    }
  });

  it("fork needs --at or --before when not on a terminal", async () => {
    const { fs } = await setup();
    const r = await runCli(["fork", "src-1"], { fs });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Choose an entry with --at or --before \(interactive selection needs a terminal\)/);
  });

  it("fork --at keeps the entry; --before ends just before it and prints a user message to send again", async () => {
    const { fs } = await setup();
    const ids = async (path: string) => (await linesOf(fs, path)).slice(1).filter((e) => e.type === "message").map((e) => e.id);
    const at = await runCli(["fork", "src-1", "--at", "u2", "--json"], { fs });
    assert.equal(at.code, 0, at.stderr);
    assert.equal(at.stderr, "");
    assert.deepEqual(await ids(JSON.parse(at.stdout).path), ["u1", "a1", "u2"]);
    const before = await runCli(["fork", "src-1", "--before", "u2", "--json"], { fs });
    assert.equal(before.code, 0, before.stderr);
    assert.equal(before.stderr, "Message to send again:\nsecond\n");
    assert.deepEqual(await ids(JSON.parse(before.stdout).path), ["u1", "a1"]);
    // Not a message: --before still leaves the entry out, and there is nothing to send again.
    const notPrompt = await runCli(["fork", "src-1", "--before", "a2"], { fs });
    assert.equal(notPrompt.code, 0, notPrompt.stderr);
    assert.equal(notPrompt.stderr, "");
    assert.deepEqual(await ids(notPrompt.stdout.trim()), ["u1", "a1", "u2"]);
    // Entry references work as for --at.
    const byLabel = await runCli(["fork", "src-1", "--before", "label:start"], { fs });
    assert.equal(byLabel.code, 1);
    assert.match(byLabel.stderr, /Nothing to fork: no entry comes before this message/);
  });

  it("fork with both --at and --before, or --before an unknown entry, exits 2", async () => {
    const { fs } = await setup();
    const both = await runCli(["fork", "src-1", "--at", "a2", "--before", "u2"], { fs });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /Pass --at or --before, not both/);
    assert.equal((await runCli(["fork", "src-1", "--before", "zz"], { fs })).code, 2);
  });

  it("fork rejects unknown sessions and entries with exit 2, non-sessions with 3", async () => {
    const { fs } = await setup();
    assert.equal((await runCli(["fork", "nope", "--at", "u1"], { fs })).code, 2);
    const entry = await runCli(["fork", "src-1", "--at", "zz"], { fs });
    assert.equal(entry.code, 2);
    assert.match(entry.stderr, /Entry "zz" not found/);
    await writeText(fs, "/work/proj/plain.jsonl", "{\"hello\":1}\n");
    assert.equal((await runCli(["fork", "plain.jsonl", "--at", "u1"], { fs })).code, 3);
  });

  it("fork writes nothing for a branch without conversation, as pi defers it", async () => {
    const fs = memoryFs();
    await addSession(fs, "setup-only", [model("m1", null), userEntry("u1", "m1", "hi")]);
    const before = await fs.list(sessionDir());
    const r = await runCli(["fork", "setup-only", "--at", "m1"], { fs });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Nothing to write yet: the branch holds no conversation/);
    assert.equal(r.stdout, "");
    assert.deepEqual(await fs.list(sessionDir()), before);
  });

  it("fork into a read-only directory fails with exit 3 and writes nothing", async () => {
    const { fs, source } = await setup();
    const target = sessionDir("/ro");
    await fs.mkdir(target, { recursive: true });
    const before = await fingerprint(fs, "/");
    const r = await runCli(["--cwd", "/ro", "fork", source, "--at", "a2"], { fs: readOnlyFs(fs, [target]) });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /Cannot write .*permission denied/);
    assert.equal(await fingerprint(fs, "/"), before);
  });

  it("fork into a real read-only directory fails with exit 3", { skip: process.getuid?.() === 0 ? "root ignores permissions" : false }, async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-session-fork-"));
    const dir = join(root, "sessions");
    try {
      const source = await addSession(nodeFileSystem, "src-1", ENTRIES, { dir });
      await chmod(dir, 0o555);
      const r = await runCli(["fork", source, "--at", "a2"], { fs: nodeFileSystem });
      assert.equal(r.code, 3);
      assert.equal((await readdir(dir)).length, 1);
    } finally {
      await chmod(dir, 0o755).catch(() => {});
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("clone", () => {
  it("clone copies the active branch (the one ending at the last entry)", async () => {
    const { fs, source } = await setup();
    const before = await fs.list(sessionDir());
    const r = await runCli(["clone", "src-1"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const path = r.stdout.trim();
    assert.deepEqual(newFiles(before.map((e) => e.name), (await fs.list(sessionDir())).map((e) => e.name)), [path.slice(path.lastIndexOf("/") + 1)]);
    const [head, ...entries] = await linesOf(fs, path);
    assert.equal(head.parentSession, source);
    assert.deepEqual(entries.map((e) => e.id).slice(0, 3), ["u1", "a1", "u3"]);
    assert.deepEqual({ ...entries[3], id: "?" }, label("?", "u3", "u1", "start"));
  });

  it("clone --leaf copies the branch ending there", async () => {
    const { fs } = await setup();
    const r = await runCli(["clone", "src-1", "--leaf", "a2", "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const [, ...entries] = await linesOf(fs, JSON.parse(r.stdout).path);
    assert.deepEqual(entries.map((e) => e.id).slice(0, 4), ["u1", "a1", "u2", "a2"]);
  });

  it("clone of a session without entries has nothing to clone", async () => {
    const fs = memoryFs();
    await addSession(fs, "empty-1", [], { text: jsonl(header("empty-1")) });
    const r = await runCli(["clone", "empty-1"], { fs });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Nothing to clone yet/);
  });

  it("clone rejects a bad reference with exit 2 and a non-session with exit 3", async () => {
    const { fs } = await setup();
    assert.equal((await runCli(["clone", "nope"], { fs })).code, 2);
    assert.equal((await runCli(["clone", "src-1", "--leaf", "zz"], { fs })).code, 2);
    await writeText(fs, "/work/proj/empty.jsonl", "");
    assert.equal((await runCli(["clone", "empty.jsonl"], { fs })).code, 3);
  });
});
