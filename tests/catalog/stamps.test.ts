/**
 * The stored stamps gone through one at a time (stamps.ts): every store shape hands on the same
 * stamps, a walk keeps them by the files' places, and SQLite streams what `loadHeaderIds` lists.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { eachStamp, FileStamps, fileIndex, PassCollector, StoredIds, YOUNG_EVERY } from "../../src/catalog/stamps.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { CatalogStore, HeaderStamp, SectionKey } from "../../src/catalog/store.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const SECTION: SectionKey = { name: "listing", version: 1 };
const STAMPS = new Map<string, HeaderStamp>([
  ["/s/a.jsonl", { size: 10, mtimeMs: 1.5, headerId: "id-a" }],
  ["/s/b.jsonl", { size: 20, mtimeMs: 2.5, headerId: null }],
  ["/t/c.jsonl", { size: 30, mtimeMs: 3.5, headerId: "id-c" }],
]);

/** A store with nothing but what `eachStamp` may use (`shape`). */
function storeOf(shape: "eachStamp" | "loadHeaderIds" | "loadStamps"): CatalogStore {
  const base = { kind: shape, location: "/cache", supportsDocs: false } as unknown as CatalogStore;
  if (shape === "loadHeaderIds") return { ...base, loadHeaderIds: () => Promise.resolve(new Map(STAMPS)) };
  if (shape === "loadStamps") return { ...base, loadStamps: () => Promise.resolve(new Map([...STAMPS].map(([p, s]) => [p, { size: s.size, mtimeMs: s.mtimeMs }]))) };
  return {
    ...base,
    eachStamp: (_section, visit) => {
      for (const [path, s] of STAMPS) visit(path, s.size, s.mtimeMs, s.headerId);
      return Promise.resolve();
    },
  };
}

test("eachStamp() hands on every stored stamp, streamed, from header ids, or from plain stamps (ids null)", async () => {
  for (const shape of ["eachStamp", "loadHeaderIds", "loadStamps"] as const) {
    const seen: unknown[] = [];
    await eachStamp(storeOf(shape), SECTION, (...stamp) => seen.push(stamp));
    const ids = shape === "loadStamps" ? [null, null, null] : ["id-a", null, "id-c"];
    assert.deepEqual(seen, [["/s/a.jsonl", 10, 1.5, ids[0]], ["/s/b.jsonl", 20, 2.5, ids[1]], ["/t/c.jsonl", 30, 3.5, ids[2]]], shape);
  }
  await assert.rejects(eachStamp({ kind: "none" } as unknown as CatalogStore, SECTION, () => {}), /lists no stamps/);
});

test("FileStamps.load() keeps each indexed file's stamp at its place and hands on the stored paths of no file", async () => {
  const index = fileIndex(["/t/c.jsonl", "/s/new.jsonl", "/t/c.jsonl", "/s/a.jsonl"]);
  assert.deepEqual([...index], [["/t/c.jsonl", 0], ["/s/new.jsonl", 1], ["/s/a.jsonl", 2]], "a path listed twice has one place");
  const others: string[] = [];
  const stamps = await FileStamps.load(storeOf("eachStamp"), SECTION, index, { ids: true, other: (path) => others.push(path) });
  assert.deepEqual([...stamps.found], [1, 0, 1]);
  assert.deepEqual([...stamps.size], [30, 0, 10]);
  assert.deepEqual([...stamps.mtimeMs], [3.5, 0, 1.5]);
  assert.deepEqual(stamps.headerIds, ["id-c", null, "id-a"]);
  assert.deepEqual(others, ["/s/b.jsonl"]);
  assert.equal((await FileStamps.load(storeOf("eachStamp"), SECTION, index)).headerIds, undefined, "ids only when asked");
});

test("StoredIds answers for the files marked current only", () => {
  const index = fileIndex(["/s/a.jsonl", "/s/b.jsonl", "/s/c.jsonl"]);
  const ids = new StoredIds(index, Uint8Array.from([1, 1, 0]), ["id-a", null, "id-c"]);
  assert.equal(ids.size, 2);
  assert.equal(ids.get("/s/a.jsonl"), "id-a");
  assert.equal(ids.get("/s/b.jsonl"), null, "a current file without a usable header id");
  assert.equal(ids.get("/s/c.jsonl"), undefined, "not current");
  assert.equal(ids.get("/elsewhere.jsonl"), undefined);
  assert.deepEqual([ids.has("/s/a.jsonl"), ids.has("/s/b.jsonl"), ids.has("/s/c.jsonl")], [true, true, false]);
  assert.deepEqual([...ids.values()], ["id-a", null]);
});

const binding = await sqliteBinding();
test(`SqliteCatalogStore.eachStamp() streams the stamps and header ids loadHeaderIds lists (SQLite${"driver" in binding ? `, ${binding.driver}` : ""})`, { skip: "skip" in binding ? binding.skip : undefined }, async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-session-stamps-"));
  const store = await openSqliteStore(join(root, "catalog.sqlite"));
  try {
    const fs = detectFileSystem();
    const dir = join(root, "sessions");
    await fs.mkdir(dir, { recursive: true });
    const files = [0, 1, 2].map((i) => join(dir, `2025-06-01T10-00-0${i}-000Z_s${i}.jsonl`));
    for (const [i, path] of files.entries()) await fs.writeAtomic(path, utf8(sessionText(`s${i}`, i + 1)));
    await fs.writeAtomic(join(dir, "2025-06-01T10-00-09-000Z_bad.jsonl"), utf8("not json\n"));
    await new Catalog(fs, { store }).refresh([listingDigest], [...files, join(dir, "2025-06-01T10-00-09-000Z_bad.jsonl")]);
    const streamed: [string, HeaderStamp][] = [];
    await store.eachStamp(listingDigest, (path, size, mtimeMs, headerId) => streamed.push([path, { size, mtimeMs, headerId }]));
    const listed = [...(await store.loadHeaderIds(listingDigest))];
    const byPath = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : 1);
    assert.equal(streamed.length, 4);
    assert.deepEqual(streamed.sort(byPath), listed.sort(byPath));
    assert.deepEqual(streamed.map(([, s]) => s.headerId), ["s0", "s1", "s2", null]);
  } finally {
    store.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test("PassCollector collects young at every YOUNG_EVERYth item, and in full at the end of a pass at least that long", () => {
  /** The collections over a pass of `n` items, as "young@item" / "full@end". */
  const pass = (n: number): string[] => {
    const asked: string[] = [];
    let at = 0;
    const collector = new PassCollector((young) => asked.push(young ? `young@${at}` : `full@${at === n ? "end" : at}`));
    for (at = 1; at <= n; at++) collector.item();
    at = n;
    collector.end();
    return asked;
  };
  assert.deepEqual(pass(YOUNG_EVERY - 1), []);
  assert.deepEqual(pass(YOUNG_EVERY), [`young@${YOUNG_EVERY}`, "full@end"]);
  assert.deepEqual(pass(2 * YOUNG_EVERY + 1), [`young@${YOUNG_EVERY}`, `young@${2 * YOUNG_EVERY}`, "full@end"]);
});
