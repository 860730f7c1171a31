/**
 * One suite every catalog store must pass (file store on memory and on disk, SQLite with
 * each binding): records round-trip exactly, saves apply puts and removes, sections and
 * versions stay apart, `clear` empties, and full-text documents replace by offset.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { namesDigest } from "../../src/catalog/folder-digest.ts";
import type { CatalogRecord, CatalogStore } from "../../src/catalog/store.ts";
import type { DocRow } from "../../src/core/digest/docs-digest.ts";

function record(path: string, n: number, final = false): CatalogRecord {
  const state = { header: { id: `id-${n}`, cwd: "/ü/日本" }, rejected: false, data: { rows: [["assistant", "e", "t", "k", n, 0.1 + n, 1e-9, 0]] } };
  return {
    path,
    size: 1000 + n,
    mtimeMs: 1748772000123.456 + n,
    end: 990 + n,
    lines: n,
    headHash: "0123456789abcdef",
    tailHash: "fedcba9876543210",
    headerId: n % 2 ? `id-${n}` : null,
    state,
    ...(final ? { final: { ...state, data: { rows: [] } } } : {}),
  };
}

function doc(text: string, offset: number, extra: Partial<DocRow> = {}): DocRow {
  return { entryId: `e${offset}`, timestamp: `2025-06-01T00:00:0${offset % 10}.000Z`, role: "user", part: "text", text, line: offset, offset, length: 5, ...extra };
}

/** Registers the contract's tests for a store made fresh by `make` (cleaned up by its `done`). */
export function storeContract(name: string, make: () => Promise<{ store: CatalogStore; done: () => Promise<void> }>, skip: string | false = false): void {
  const it = (title: string, body: (store: CatalogStore) => Promise<void>) =>
    test(`${name}: ${title}`, { skip }, async () => {
      const { store, done } = await make();
      try {
        await body(store);
      } finally {
        store.close();
        await done();
      }
    });

  const listing = { name: "listing", version: 1 };

  it("starts empty and round-trips records exactly", async (store) => {
    assert.equal((await store.load(listing)).size, 0);
    const records = [record("/s/a.jsonl", 1), record("/s/ü 日本.jsonl", 2, true)];
    await store.save(listing, { put: records, remove: [] });
    const loaded = await store.load(listing);
    assert.deepEqual([...loaded.values()].sort((a, b) => a.path.localeCompare(b.path)), records);
  });

  it("keeps the states of a section that encodes them as its encode gives, and loads them through its decode", async (store) => {
    // A section whose states hold typed arrays, which JSON alone would turn into objects.
    const typed = {
      name: "typed",
      version: 1,
      encode: (data: unknown) => ({ numbers: Array.from((data as { numbers: Float64Array }).numbers) }),
      decode: (stored: unknown) => {
        const numbers = (stored as { numbers?: unknown }).numbers;
        if (!Array.isArray(numbers)) throw new SyntaxError("not a typed state");
        return { numbers: Float64Array.from(numbers) };
      },
    };
    const withNumbers = (r: CatalogRecord, numbers: number[]): CatalogRecord => ({
      ...r,
      state: { ...r.state, data: { numbers: Float64Array.from(numbers) } },
      ...(r.final ? { final: { ...r.final, data: { numbers: Float64Array.from([...numbers, 7]) } } } : {}),
    });
    const records = [withNumbers(record("/s/a.jsonl", 1), [0.1, 1e-9, 1764574577599]), withNumbers(record("/s/b.jsonl", 2, true), [])];
    await store.save(typed, { put: records, remove: [] });
    const loaded = await store.load(typed);
    assert.deepEqual([...loaded.values()].sort((a, b) => a.path.localeCompare(b.path)), records);
    assert.ok((loaded.get("/s/a.jsonl")!.state.data as { numbers: unknown }).numbers instanceof Float64Array);
    // A record its decode refuses is left out, as if missing (the catalog then reads that file again).
    await store.save({ name: "typed", version: 2 }, { put: [record("/s/a.jsonl", 1)], remove: [] });
    assert.equal((await store.load({ ...typed, version: 2 })).size, 0);
  });

  it("leaves out a record that parses but has the wrong shape, as if missing, and loads the others", async (store) => {
    // What a broken writer or a hand edit leaves: `state` null, no data, data of another shape, a bad final.
    const shaped = { ...listing, initial: () => ({ messageCount: 0, firstMessage: "" }) };
    const good = { ...record("/s/good.jsonl", 1), state: { header: { id: "g" }, rejected: false, data: { messageCount: 2, firstMessage: "hi" } } };
    const bad = [
      { ...good, path: "/s/null-state.jsonl", state: null },
      { ...good, path: "/s/null-data.jsonl", state: { header: null, rejected: false, data: null } },
      { ...good, path: "/s/no-flag.jsonl", state: { header: null, data: { messageCount: 1, firstMessage: "" } } },
      { ...good, path: "/s/wrong-field.jsonl", state: { header: null, rejected: false, data: { messageCount: "2", firstMessage: "" } } },
      { ...good, path: "/s/bad-header.jsonl", state: { header: 5, rejected: false, data: { messageCount: 1, firstMessage: "" } } },
      { ...good, path: "/s/bad-final.jsonl", final: { header: null, rejected: false, data: null } },
    ] as unknown as CatalogRecord[];
    await store.save(shaped, { put: [good, ...bad], remove: [] });
    const loaded = await store.load(shaped);
    assert.deepEqual([...loaded.keys()], ["/s/good.jsonl"]);
    if (store.loadPaths) assert.deepEqual([...(await store.loadPaths(shaped, bad.map((r) => r.path))).keys()], []);
    // A save over the bad ones replaces them.
    await store.save(shaped, { put: bad.map((r) => ({ ...good, path: r.path })), remove: [] });
    assert.equal((await store.load(shaped)).size, bad.length + 1);
  });

  it("applies puts and removes, and keeps sections and versions apart", async (store) => {
    await store.save(listing, { put: [record("/a", 1), record("/b", 2)], remove: [] });
    await store.save({ name: "usage", version: 1 }, { put: [record("/a", 9)], remove: [] });
    await store.save(listing, { put: [record("/b", 3)], remove: ["/a"] });
    const loaded = await store.load(listing);
    assert.deepEqual([...loaded.keys()], ["/b"]);
    assert.equal(loaded.get("/b")!.lines, 3);
    assert.equal((await store.load({ name: "usage", version: 1 })).get("/a")!.lines, 9);
    assert.equal((await store.load({ name: "listing", version: 2 })).size, 0);
    const description = await store.describe();
    assert.equal(description.kind, store.kind);
    assert.ok(description.sections.some((s) => s.name === "usage" && s.records === 1));
  });

  it("loadPaths() gives the records of just the paths asked for, where the store has it", async (store) => {
    if (!store.loadPaths) return;
    const records = [record("/s/a.jsonl", 1), record("/s/ü 日本.jsonl", 2, true), record("/s/c.jsonl", 3)];
    await store.save(listing, { put: records, remove: [] });
    await store.save({ name: "usage", version: 1 }, { put: [record("/s/c.jsonl", 9)], remove: [] });
    const some = await store.loadPaths(listing, ["/s/ü 日本.jsonl", "/s/c.jsonl", "/s/missing.jsonl"]);
    assert.deepEqual([...some.values()].sort((a, b) => a.path.localeCompare(b.path)), [records[2], records[1]]);
    assert.equal((await store.loadPaths({ name: "listing", version: 2 }, ["/s/c.jsonl"])).size, 0);
    // More paths than one query's parameters hold.
    const many = Array.from({ length: 1200 }, (_, i) => `/s/none-${i}.jsonl`);
    assert.deepEqual([...(await store.loadPaths(listing, [...many, "/s/a.jsonl"])).keys()], ["/s/a.jsonl"]);
  });

  it("clear() forgets everything", async (store) => {
    await store.save(listing, { put: [record("/a", 1)], remove: [] });
    await store.clear();
    assert.equal((await store.load(listing)).size, 0);
  });

  it("full-text documents are found, replaced from an offset on, and removed with their file", async (store) => {
    if (!store.supportsDocs) return;
    const docs = { name: "docs", version: 1 };
    await store.save(docs, { put: [record("/a", 1), record("/b", 2)], remove: [], docs: [
      { path: "/a", from: 0, rows: [doc("the parser ünïcode", 1), doc("other words", 2), doc("日本語のセッション", 3)] },
      { path: "/b", from: 0, rows: [doc("parser again", 4, { part: "thinking" })] },
    ] });
    const found = async (expression: string) => (await store.searchDocs!(expression, 0, 100)).map((d) => `${d.path}:${d.offset}:${d.part}`);
    assert.deepEqual(await found('"pars" *'), ["/b:4:thinking", "/a:1:text"]);
    assert.deepEqual(await found('"ünï" *'), ["/a:1:text"]);
    assert.deepEqual(await found('"セ" AND "ッ" AND "シ" AND "ョ" AND "ン" *'), ["/a:3:text"]);
    // An append re-read from offset 2 replaces the documents at 2 and after.
    await store.save(docs, { put: [record("/a", 5)], remove: [], docs: [{ path: "/a", from: 2, rows: [doc("parser tail", 7)] }] });
    assert.deepEqual(await found('"pars" *'), ["/a:7:text", "/b:4:thinking", "/a:1:text"]);
    assert.deepEqual(await found('"other" *'), []);
    await store.save(docs, { put: [], remove: ["/b"] });
    assert.deepEqual(await found('"pars" *'), ["/a:7:text", "/a:1:text"]);
    assert.equal((await store.describe()).docs, 2);
    assert.deepEqual((await store.searchDocs!('"pars" *', 1, 5)).map((d) => d.offset), [1]);
  });

  it("a text copied into several files (a fork, a clone) is found in each, and in those left as copies are removed", async (store) => {
    if (!store.supportsDocs) return;
    const docs = { name: "docs", version: 1 };
    const shared = "the forked parser text";
    await store.save(docs, { put: [record("/a", 1), record("/b", 2), record("/c", 3)], remove: [], docs: [
      { path: "/a", from: 0, rows: [doc(shared, 1), doc(shared, 2, { part: "thinking" })] },
      { path: "/b", from: 0, rows: [doc(shared, 3)] },
      { path: "/c", from: 0, rows: [doc("unrelated words", 4, { role: "bashExecution" })] },
    ] });
    assert.deepEqual((await store.searchDocs!('"unrelated" *', 0, 10)).map((d) => `${d.role}:${d.part}:${d.timestamp}`), ["bashExecution:text:2025-06-01T00:00:04.000Z"]);
    const found = async (expression: string) => (await store.searchDocs!(expression, 0, 100)).map((d) => `${d.path}:${d.offset}:${d.part}`);
    assert.deepEqual(await found('"forked" *'), ["/b:3:text", "/a:2:thinking", "/a:1:text"]);
    await store.save(docs, { put: [], remove: ["/a"] });
    assert.deepEqual(await found('"forked" *'), ["/b:3:text"]);
    // Its last use replaced: the text is gone from the index, and found again once used again.
    await store.save(docs, { put: [record("/b", 5)], remove: [], docs: [{ path: "/b", from: 0, rows: [doc("other", 3)] }] });
    assert.deepEqual(await found('"forked" *'), []);
    await store.save(docs, { put: [record("/c", 6)], remove: [], docs: [{ path: "/c", from: 5, rows: [doc(shared, 5)] }] });
    assert.deepEqual(await found('"forked" *'), ["/c:5:text"]);
    assert.deepEqual(await found('"unrelated" *'), ["/c:4:text"]);
    assert.equal((await store.describe()).docs, 3);
  });

  it("keeps the quick check's folders and full checks, merged by path and section", async (store) => {
    assert.ok(store.loadFolders && store.saveFolders, "every store keeps them");
    const empty = async () => {
      const { folders, fullChecks } = await store.loadFolders!();
      assert.deepEqual({ folders, fullChecks }, { folders: new Map(), fullChecks: new Map() });
    };
    await empty();
    const a = { path: "/s/--a--", mtimeMs: 1748772000123.5, listedMs: 1748772009000, names: ["x.jsonl", "ü 日本.jsonl"] };
    const b = { path: "/s/--b--", mtimeMs: 5, listedMs: 9000, names: [] };
    await store.saveFolders([a, b], [], new Map([["listing@2", 1000]]));
    const a2 = { ...a, names: ["y.jsonl"] };
    await store.saveFolders([a2], ["/s/--b--"], new Map([["docs@2", 2000]]));
    // A store may give the names one a line too (`lines`), and how many (`count`, the SQLite
    // store before reading any name): then exactly those names.
    const loaded = await store.loadFolders();
    // And the fingerprint of the names (`digest`), where it says it keeps them (`digests`).
    const folders = [...loaded.folders].map(([path, { lines, count, digest, ...folder }]) => {
      if (store.kind.startsWith("sqlite")) assert.equal(count, 1, "the SQLite store counts the names it has not read");
      if (count !== undefined) assert.equal(count, folder.names.length);
      if (lines !== undefined) assert.equal(lines, folder.names.join("\n"));
      if (loaded.digests) assert.equal(digest, namesDigest(folder.names));
      else assert.equal(digest, undefined);
      return [path, { ...folder, names: folder.names }] as const;
    });
    assert.equal(loaded.digests, store.kind.startsWith("sqlite") ? true : undefined);
    assert.deepEqual({ folders: new Map(folders), fullChecks: loaded.fullChecks }, { folders: new Map([[a.path, a2]]), fullChecks: new Map([["listing@2", 1000], ["docs@2", 2000]]) });
    await store.clear();
    await empty();
  });
}
