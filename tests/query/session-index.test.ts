/**
 * The line index behind `sessionEntries()`: every page equals what reading the whole file gives
 * (sound files, broken lines, a torn or unterminated last line, CRLF, BOM, second headers, older
 * versions), and a kept index follows the file: extended when it grows, built again when it is
 * rewritten in place.
 * @module
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sessionEntries, type EntriesOptions } from "../../src/query/entries.ts";
import type { QueryEnv } from "../../src/query/env.ts";
import { checkLimit } from "../../src/query/list.ts";
import { loadSession } from "../../src/query/load.ts";
import { resolveEntryRef } from "../../src/query/resolve/entry-ref.ts";
import { SessionIndexes } from "../../src/query/session-indexes.ts";
import { SessionIndex } from "../../src/query/session-index.ts";
import { branchPage } from "../../src/query/branch-page.ts";
import { reportSkipped } from "../../src/query/skipped-note.ts";
import { assistantEntry, CWD, header, jsonl, sessionDir, userEntry } from "../cli/_harness.ts";
import { testEnv } from "./_env.ts";

const ID = "5e551014-0000-4000-8000-000000000001";
const PATH = `${sessionDir()}/2025-06-01T10-00-00-000Z_${ID}.jsonl`;

/** A memory disk whose clock moves on at every write, as a disk's mtimes do. */
function tickingFs(): MemoryFileSystem {
  let now = Date.parse("2026-01-02T03:04:05.000Z");
  return new MemoryFileSystem({ clock: () => (now += 1000), cwd: CWD });
}

/** What `sessionEntries` gave before the index: the whole file read, then sliced. */
async function byFullRead(env: QueryEnv, options: EntriesOptions) {
  const limit = checkLimit(options.limit, "Pass e.g. limit=500");
  const { path, file, tree } = await loadSession(env, options.ref);
  reportSkipped(env, path, file.issues);
  const all = file.entries;
  const afterId = options.after === undefined ? undefined : resolveEntryRef(tree, options.after, path);
  const start = afterId === undefined ? 0 : all.findLastIndex((e) => e.id === afterId) + 1;
  const entries = all.slice(start, start + limit);
  const end = start + entries.length;
  return { path, id: file.header!.id, leafId: tree.leafId, entryCount: all.length, entries, nextAfter: end < all.length && entries.length > 0 ? entries[entries.length - 1].id : null };
}

/** The outcome of a call: its value and what it reported, or its error's kind and message. */
async function outcome(run: () => Promise<unknown>, reported: string[]): Promise<unknown> {
  reported.length = 0;
  try {
    return { value: await run(), reported: [...reported] };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message, reported: [...reported] };
  }
}

/** Asserts that every page (several limits, from the start and after each entry) equals the full read's. */
async function assertSamePages(fs: MemoryFileSystem, label: string, indexes?: SessionIndexes): Promise<void> {
  const { env, reported } = testEnv(fs);
  const indexed: QueryEnv = indexes ? { ...env, sessionIndexes: indexes } : env;
  const expectedAll = await outcome(() => byFullRead(env, { ref: ID }), reported) as { value?: { entries: { id: string }[] } };
  const afters: (string | undefined)[] = [undefined, "label:start", ...(expectedAll.value?.entries.map((e) => e.id) ?? [])];
  for (const after of afters) {
    for (const limit of [undefined, 1, 2, 3]) {
      const options = { ref: ID, after, limit };
      const expected = await outcome(() => byFullRead(env, options), reported);
      const actual = await outcome(async () => (await sessionEntries(indexed, options)).value, reported);
      assert.deepEqual(actual, expected, `${label}: after ${after}, limit ${limit}`);
    }
  }
}

const label = (id: string, parentId: string, targetId: string, name: string) => ({ type: "label", id, parentId, timestamp: "2025-06-01T10:00:09.000Z", targetId, label: name });
const named = (id: string, parentId: string, name: string) => ({ type: "session_info", id, parentId, timestamp: "2025-06-01T10:00:09.000Z", name });
const sound = () => [userEntry("e1", null, "one"), assistantEntry("e2", "e1", "two"), label("l1", "e2", "e1", "start"), userEntry("e3", "e2", "three"), named("n1", "e3", "A name"), userEntry("e4", "e2", "four")];

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => typeof p === "string" ? [...new TextEncoder().encode(p)] : p));

const FILES: Record<string, string | Uint8Array> = {
  "a sound file": jsonl(header(ID), ...sound()),
  "an empty session": jsonl(header(ID)),
  "a last line without its newline, whole": jsonl(header(ID), ...sound()).trimEnd(),
  "a torn last line": jsonl(header(ID), ...sound()).slice(0, -20),
  "a torn line in the middle (written over)": jsonl(header(ID), ...sound().slice(0, 2)).slice(0, -15) + jsonl(...sound().slice(2)),
  "CRLF line ends": jsonl(header(ID), ...sound()).replaceAll("\n", "\r\n"),
  "a byte order mark": "\ufeff" + jsonl(header(ID), ...sound()),
  "blank lines and a number": jsonl(header(ID), ...sound().slice(0, 3)) + "\n  \n42\n" + jsonl(...sound().slice(3)),
  "a second header": jsonl(header(ID), ...sound().slice(0, 3), header("other"), ...sound().slice(3)),
  "a second header as the unterminated last line": jsonl(header(ID), ...sound(), header("other")).trimEnd(),
  "duplicate ids": jsonl(header(ID), ...sound(), userEntry("e2", "e4", "again")),
  "an entry without an id": jsonl(header(ID), ...sound().slice(0, 2), { type: "custom", parentId: "e2", timestamp: "t" }, ...sound().slice(2)),
  "invalid UTF-8": bytes(jsonl(header(ID), ...sound().slice(0, 2)), '{"type":"custom","id":"bad","parentId":"e2","timestamp":"t","x":"', [0xff, 0xc3], '"}\n', jsonl(...sound().slice(2))),
  "a line nested too deep": jsonl(header(ID), ...sound().slice(0, 2)) + `{"type":"custom","id":"deep","parentId":"e2","timestamp":"t","x":${"[".repeat(600)}${"]".repeat(600)}}\n`,
  "a version 2 file": jsonl({ ...header(ID), version: 2 }, ...sound()),
  "a version 1 file (no ids)": jsonl({ type: "session", id: ID, timestamp: "2025-06-01T10:00:00.000Z", cwd: CWD }, { type: "message", timestamp: "t", message: { role: "user", content: "hi" } }),
  "not a session": "this is not json\n" + jsonl(...sound()),
  "a first line that is an entry": jsonl(...sound()),
};

describe("sessionEntries() through the line index = the whole file read", () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`gives the same pages, warnings and errors for ${name}, with and without kept indexes`, async () => {
      const fs = tickingFs();
      await fs.mkdir(sessionDir(), { recursive: true });
      await fs.writeAtomic(PATH, typeof text === "string" ? new TextEncoder().encode(text) : text);
      await assertSamePages(fs, name);
      await assertSamePages(fs, name, new SessionIndexes());
    });
  }
});

describe("a kept session index follows its file", () => {
  async function setUp(text: string) {
    const fs = tickingFs();
    await fs.mkdir(sessionDir(), { recursive: true });
    await fs.writeAtomic(PATH, new TextEncoder().encode(text));
    const indexes = new SessionIndexes();
    const { env } = testEnv(fs);
    return { fs, indexes, env: { ...env, sessionIndexes: indexes } as QueryEnv };
  }
  const append = (fs: MemoryFileSystem, text: string) => fs.append(PATH, new TextEncoder().encode(text));

  it("reads on from where it stopped when the file grows, without indexing it again", async () => {
    const { fs, indexes, env } = await setUp(jsonl(header(ID), ...sound().slice(0, 3)));
    assert.equal((await sessionEntries(env, { ref: ID })).value.entryCount, 3);
    await append(fs, jsonl(...sound().slice(3)));
    const page = (await sessionEntries(env, { ref: ID, after: "l1", limit: 2 })).value;
    assert.deepEqual(page.entries.map((e) => e.id), ["e3", "n1"]);
    assert.equal(page.entryCount, 6);
    assert.equal(page.leafId, "e4");
    assert.equal(indexes.builds, 1);
    await assertSamePages(fs, "grown", indexes);
    assert.equal(indexes.builds, 1);
  });

  it("gives a line pi is still writing once it is whole, and the one after it", async () => {
    const { fs, indexes, env } = await setUp(jsonl(header(ID), ...sound().slice(0, 2)));
    const line = JSON.stringify(sound()[2]);
    await append(fs, line.slice(0, 10));
    assert.deepEqual((await sessionEntries(env, { ref: ID })).value.entries.map((e) => e.id), ["e1", "e2"]);
    await append(fs, line.slice(10));
    assert.deepEqual((await sessionEntries(env, { ref: ID, after: "e2" })).value.entries.map((e) => e.id), ["l1"]);
    await append(fs, "\n" + jsonl(sound()[3]));
    const page = (await sessionEntries(env, { ref: ID, after: "e2" })).value;
    assert.deepEqual([page.entries.map((e) => e.id), page.leafId], [["l1", "e3"], "e3"]);
    assert.equal(indexes.builds, 1);
    await assertSamePages(fs, "completed", indexes);
  });

  it("indexes a file rewritten in place again: shorter, or as long but changed", async () => {
    const { fs, indexes, env } = await setUp(jsonl(header(ID), ...sound()));
    assert.equal((await sessionEntries(env, { ref: ID })).value.entryCount, 6);
    // Shrunk (a repair, a rewrite): the offsets held are stale.
    await fs.writeAtomic(PATH, new TextEncoder().encode(jsonl(header(ID), userEntry("x1", null, "new"), userEntry("x2", "x1", "newer"))));
    const page = (await sessionEntries(env, { ref: ID, after: "x1" })).value;
    assert.deepEqual([page.entries.map((e) => e.id), page.entryCount], [["x2"], 2]);
    assert.equal(indexes.builds, 2);
    // As long, other bytes: the mtime moved, so it is read again rather than trusted.
    await fs.writeAtomic(PATH, new TextEncoder().encode(jsonl(header(ID), userEntry("y1", null, "new"), userEntry("y2", "y1", "newer"))));
    assert.deepEqual((await sessionEntries(env, { ref: ID })).value.entries.map((e) => e.id), ["y1", "y2"]);
    assert.equal(indexes.builds, 3);
    // Longer, but not by an append (the start changed): built again too.
    await fs.writeAtomic(PATH, new TextEncoder().encode(jsonl(header(ID), userEntry("z1", null, "newest"), userEntry("z2", "z1", "newer"), userEntry("z3", "z2", "more"))));
    assert.deepEqual((await sessionEntries(env, { ref: ID })).value.entries.map((e) => e.id), ["z1", "z2", "z3"]);
    assert.equal(indexes.builds, 4);
    await assertSamePages(fs, "rewritten", indexes);
  });

  it("pages across a page boundary: after the last id of a page comes the first of the next, as the file grows", async () => {
    const entries = Array.from({ length: 10 }, (_, i) => userEntry(`p${i}`, i === 0 ? null : `p${i - 1}`, `turn ${i}`));
    const { fs, env } = await setUp(jsonl(header(ID), ...entries.slice(0, 6)));
    const first = (await sessionEntries(env, { ref: ID, limit: 3 })).value;
    assert.deepEqual([first.entries.map((e) => e.id), first.nextAfter], [["p0", "p1", "p2"], "p2"]);
    const second = (await sessionEntries(env, { ref: ID, after: first.nextAfter!, limit: 3 })).value;
    assert.deepEqual([second.entries.map((e) => e.id), second.nextAfter], [["p3", "p4", "p5"], null]);
    await append(fs, jsonl(...entries.slice(6)));
    const third = (await sessionEntries(env, { ref: ID, after: "p5", limit: 3 })).value;
    assert.deepEqual([third.entries.map((e) => e.id), third.nextAfter, third.entryCount], [["p6", "p7", "p8"], "p8", 10]);
    const last = (await sessionEntries(env, { ref: ID, after: third.nextAfter!, limit: 3 })).value;
    assert.deepEqual([last.entries.map((e) => e.id), last.nextAfter], [["p9"], null]);
  });

  it("keeps at most the files and entries it is told to, the least recently used dropped first", async () => {
    const fs = tickingFs();
    await fs.mkdir(sessionDir(), { recursive: true });
    const paths = ["a", "b", "c"].map((name) => `${sessionDir()}/${name}.jsonl`);
    for (const path of paths) await fs.writeAtomic(path, new TextEncoder().encode(jsonl(header(ID), ...sound())));
    const indexes = new SessionIndexes({ files: 2 });
    for (const path of paths) await indexes.get(fs, path);
    await indexes.get(fs, paths[2]);
    assert.equal(indexes.builds, 3);
    await indexes.get(fs, paths[1]);
    assert.equal(indexes.builds, 3, "b was kept");
    await indexes.get(fs, paths[0]);
    assert.equal(indexes.builds, 4, "a was dropped");
    const few = new SessionIndexes({ entries: 8 });
    for (const path of paths) await few.get(fs, path);
    await few.get(fs, paths[2]);
    await few.get(fs, paths[1]);
    assert.equal(few.builds, 4, "6 + 6 entries are more than 8: only the newest is kept");
  });
});

describe("sessionEntries() with maxBytes", () => {
  it("ends a page once its lines reach maxBytes, with at least one entry, and nextAfter goes on; the same through the index and the whole read", async () => {
    const sizes = [10, 2000, 30, 30, 5000, 30, 30, 30];
    const entries = sizes.map((n, i) => userEntry(`m${i}`, i === 0 ? null : `m${i - 1}`, "x".repeat(n)));
    for (const version of [3, 2]) {
      const fs = tickingFs();
      await fs.mkdir(sessionDir(), { recursive: true });
      await fs.writeAtomic(PATH, new TextEncoder().encode(jsonl({ ...header(ID), version }, ...entries)));
      for (const env of [testEnv(fs).env, { ...testEnv(fs).env, sessionIndexes: new SessionIndexes() }]) {
        const pages: string[][] = [];
        let after: string | undefined;
        do {
          const { value } = await sessionEntries(env, { ref: ID, after, limit: 3, maxBytes: 1000 });
          pages.push(value.entries.map((e) => e.id));
          after = value.nextAfter ?? undefined;
        } while (after !== undefined);
        assert.deepEqual(pages, [["m0"], ["m1"], ["m2", "m3"], ["m4"], ["m5", "m6", "m7"]], `version ${version}`);
      }
    }
  });
});

describe("quick and exact indexes", () => {
  const entryLines = (index: SessionIndex) => index.entries.map((e, i) => `${e.id}@${index.offsets[i]}+${index.lengths[i]}:${index.lines[i]}`);

  it("a quick index finds the entries an exact one finds, and counts a line torn past its linking fields as the light pass does", async () => {
    const fs = tickingFs();
    await fs.mkdir(sessionDir(), { recursive: true });
    for (const name of ["a sound file", "CRLF line ends", "a byte order mark", "blank lines and a number", "a second header", "duplicate ids", "a torn last line"]) {
      await fs.writeAtomic(PATH, typeof FILES[name] === "string" ? new TextEncoder().encode(FILES[name] as string) : FILES[name] as Uint8Array);
      const stat = (await fs.stat(PATH))!;
      const [exact, quick] = [await SessionIndex.build(fs, PATH, stat), await SessionIndex.build(fs, PATH, stat, false)];
      assert.deepEqual(entryLines(quick), entryLines(exact), name);
      assert.deepEqual(quick.entries.filter((e) => e.type === "label" || e.type === "session_info"), exact.entries.filter((e) => e.type === "label" || e.type === "session_info"), name);
    }
    await fs.writeAtomic(PATH, new TextEncoder().encode(FILES["a torn line in the middle (written over)"] as string));
    const stat = (await fs.stat(PATH))!;
    const [exact, quick] = [await SessionIndex.build(fs, PATH, stat), await SessionIndex.build(fs, PATH, stat, false)];
    assert.equal(quick.count, exact.count + 1);
  });

  it("entries asked after a page (a quick index kept) get an exact index, equal to the whole file read", async () => {
    const fs = tickingFs();
    await fs.mkdir(sessionDir(), { recursive: true });
    await fs.writeAtomic(PATH, new TextEncoder().encode(FILES["a torn line in the middle (written over)"] as string));
    const indexes = new SessionIndexes();
    const env: QueryEnv = { ...testEnv(fs).env, sessionIndexes: indexes };
    await branchPage(env, { ref: ID });
    const quick = await indexes.get(fs, PATH, false);
    assert.equal(quick?.exact, false);
    await assertSamePages(fs, "after a quick index", indexes);
    assert.equal(indexes.builds, 2);
    assert.equal((await indexes.get(fs, PATH, false))?.exact, true, "the exact index serves quick uses too");
  });
});
