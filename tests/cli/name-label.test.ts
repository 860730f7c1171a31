/**
 * Tests for `name` and `label`: the exact lines appended (pi 1.6 key order and clearing
 * rules), reading back, torn tails, old files, and refusals that leave the file as it was.
 * @module
 */
import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { nodeFileSystem } from "../../src/io/node.ts";
import { addSession, assistantEntry, fingerprint, jsonl, header, memoryFs, NOW, readOnlyFs, readText, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

const ENTRIES = [userEntry("u1", null, "hi"), assistantEntry("a1", "u1", "hello")];

async function setup(text?: string) {
  const fs = memoryFs();
  const path = await addSession(fs, "sess-1", ENTRIES, text === undefined ? {} : { text });
  return { fs, path };
}

/** The appended line, with the id the command printed. */
async function lastLine(fs: Parameters<typeof readText>[0], path: string) {
  const text = await readText(fs, path);
  assert.ok(text.endsWith("\n"));
  return JSON.parse(text.trimEnd().split("\n").pop()!);
}

function printedId(stdout: string, type: string, path: string): string {
  const match = new RegExp(`^appended ${type} (\\S+) to (.*)\\n$`).exec(stdout);
  assert.ok(match, stdout);
  assert.equal(match[2], path);
  return match[1];
}

describe("name", () => {
  it("name appends a session_info line and reads it back", async () => {
    const { fs, path } = await setup();
    const none = await runCli(["name", "sess-1"], { fs });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /has no name/);
    const r = await runCli(["name", "sess-1", "Fix", "the", "login"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const id = printedId(r.stdout, "session_info", path);
    const line = await lastLine(fs, path);
    assert.deepEqual(Object.keys(line), ["type", "id", "parentId", "timestamp", "name"]);
    assert.deepEqual(line, { type: "session_info", id, parentId: "a1", timestamp: NOW.toISOString(), name: "Fix the login" });
    assert.deepEqual(await runCli(["name", "sess-1"], { fs }), { code: 0, stdout: "Fix the login\n", stderr: "" });
    assert.equal(await fs.stat(`${path}.lock`), null);
  });

  it("name turns line breaks into spaces and trims, like pi 1.6", async () => {
    const { fs, path } = await setup();
    const r = await runCli(["name", path, "  two\r\n\nlines  ", "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).name, "two lines");
    assert.equal((await lastLine(fs, path)).name, "two lines");
    assert.match(r.stderr, /Line breaks in the name were replaced/);
  });

  it("name refuses an empty name and clears with --clear", async () => {
    const { fs, path } = await setup();
    await runCli(["name", path, "old"], { fs });
    const before = await fingerprint(fs, path);
    const empty = await runCli(["name", path, " \n "], { fs });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /--clear/);
    assert.equal((await runCli(["name", path, "x", "--clear"], { fs })).code, 2);
    assert.equal(await fingerprint(fs, path), before);
    const clear = await runCli(["name", path, "--clear"], { fs });
    assert.equal(clear.code, 0, clear.stderr);
    assert.equal((await lastLine(fs, path)).name, "");
    assert.equal((await runCli(["name", path], { fs })).code, 1);
  });

  it("name repairs a torn tail before appending", async () => {
    const text = jsonl(header("sess-1"), ...ENTRIES).trimEnd();
    const { fs, path } = await setup(text);
    const r = await runCli(["name", path, "after tear"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const after = await readText(fs, path);
    assert.ok(after.startsWith(text + "\n{\"type\":\"session_info\""));
  });

  it("name migrates an old file first and keeps its original", async () => {
    const v1 = `{"type":"session","id":"sess-1","timestamp":"t","cwd":"/work/proj"}\n{"type":"message","timestamp":"t","message":{"role":"user","content":"hi","timestamp":1}}\n`;
    const { fs, path } = await setup(v1);
    const r = await runCli(["name", path, "renamed"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /v1 file: it is rewritten as v3 first/);
    assert.equal(await readText(fs, `${path}.v1.bak`), v1);
    const lines = (await readText(fs, path)).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines[0].version, 3);
    assert.equal(lines[2].parentId, lines[1].id);
    assert.equal(lines[2].name, "renamed");
  });

  it("label of an unknown entry in an old file fails before the file is rewritten as v3", async () => {
    const v1 = `{"type":"session","id":"sess-1","timestamp":"t","cwd":"/work/proj"}\n{"type":"message","timestamp":"t","message":{"role":"user","content":"hi","timestamp":1}}\n`;
    const { fs, path } = await setup(v1);
    const before = await fingerprint(fs, "/");
    const r = await runCli(["label", path, "nope", "x"], { fs });
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /rewritten/);
    assert.equal(await fingerprint(fs, "/"), before, "no file written, no backup made");
    const tree = await runCli(["tree", path, "--json"], { fs });
    const id: string = JSON.parse(tree.stdout).rows[0].id;
    const ok = await runCli(["label", path, id, "start"], { fs });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((await lastLine(fs, path)).targetId, JSON.parse((await readText(fs, path)).split("\n")[1]).id);
  });

  it("name rejects bad references with exit 2 and non-sessions with exit 3", async () => {
    const { fs } = await setup();
    assert.equal((await runCli(["name", "nope", "x"], { fs })).code, 2);
    await writeText(fs, "/work/proj/list.jsonl", "[1,2]\n");
    const r = await runCli(["name", "list.jsonl", "x"], { fs });
    assert.equal(r.code, 3);
    assert.equal(await readText(fs, "/work/proj/list.jsonl"), "[1,2]\n");
  });

  it("name on a read-only directory or file fails with exit 3 and writes nothing", async () => {
    const { fs, path } = await setup();
    const before = await fingerprint(fs, "/");
    const dir = await runCli(["name", path, "x"], { fs: readOnlyFs(fs, [sessionDir()]) });
    assert.equal(dir.code, 3);
    assert.match(dir.stderr, /Cannot write .*permission denied/);
    assert.equal(await fingerprint(fs, "/"), before);
    const locked = memoryFs();
    await locked.mkdir(sessionDir(), { recursive: true });
    await locked.append(path, new TextEncoder().encode(jsonl(header("sess-1"), ...ENTRIES)), { mode: 0o444 });
    const file = await runCli(["name", path, "x"], { fs: locked });
    assert.equal(file.code, 3);
    assert.match(file.stderr, /read-only/);
  });

  it("name on a real read-only directory fails with exit 3", { skip: process.getuid?.() === 0 ? "root ignores permissions" : false }, async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-session-name-"));
    try {
      const path = await addSession(nodeFileSystem, "sess-1", ENTRIES, { dir: root });
      const before = await readFile(path, "utf8");
      await chmod(root, 0o555);
      const r = await runCli(["name", path, "x"], { fs: nodeFileSystem });
      assert.equal(r.code, 3);
      assert.equal(await readFile(path, "utf8"), before);
    } finally {
      await chmod(root, 0o755).catch(() => {});
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("label", () => {
  it("label appends a label line and reads it back", async () => {
    const { fs, path } = await setup();
    const r = await runCli(["label", "sess-1", "u1", "start"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const id = printedId(r.stdout, "label", path);
    const line = await lastLine(fs, path);
    assert.deepEqual(Object.keys(line), ["type", "id", "parentId", "timestamp", "targetId", "label"]);
    assert.deepEqual(line, { type: "label", id, parentId: "a1", timestamp: NOW.toISOString(), targetId: "u1", label: "start" });
    assert.deepEqual(await runCli(["label", "sess-1", "label:start"], { fs }), { code: 0, stdout: "start\n", stderr: "" });
  });

  it("label --clear and an empty label write an entry without a label key", async () => {
    const { fs, path } = await setup();
    await runCli(["label", path, "a1", "mark"], { fs });
    const clear = await runCli(["label", path, "label:mark", "--clear", "--json"], { fs });
    assert.equal(clear.code, 0, clear.stderr);
    assert.equal(JSON.parse(clear.stdout).label, null);
    assert.deepEqual(Object.keys(await lastLine(fs, path)), ["type", "id", "parentId", "timestamp", "targetId"]);
    await runCli(["label", path, "a1", "again"], { fs });
    assert.equal((await runCli(["label", path, "a1", ""], { fs })).code, 0);
    assert.equal("label" in (await lastLine(fs, path)), false);
    const none = await runCli(["label", path, "a1"], { fs });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /has no label/);
  });

  it("label rejects an unknown entry or session with exit 2 and changes nothing", async () => {
    const { fs, path } = await setup();
    const before = await fingerprint(fs, "/");
    const entry = await runCli(["label", path, "zz", "x"], { fs });
    assert.equal(entry.code, 2);
    assert.match(entry.stderr, /Entry "zz" not found/);
    assert.equal((await runCli(["label", "nope", "u1", "x"], { fs })).code, 2);
    assert.equal((await runCli(["label", path, "u1", "x", "--clear"], { fs })).code, 2);
    assert.equal(await fingerprint(fs, "/"), before);
  });

  it("label on a non-session or read-only directory fails with exit 3", async () => {
    const { fs, path } = await setup();
    await writeText(fs, "/work/proj/x.jsonl", "nope\n");
    assert.equal((await runCli(["label", "x.jsonl", "u1", "x"], { fs })).code, 3);
    const before = await fingerprint(fs, "/");
    const r = await runCli(["label", path, "u1", "x"], { fs: readOnlyFs(fs, [sessionDir()]) });
    assert.equal(r.code, 3);
    assert.equal(await fingerprint(fs, "/"), before);
  });
});
