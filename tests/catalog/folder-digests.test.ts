/**
 * The fingerprints a full check compares instead of loading what it would only compare
 * (src/catalog/folder-digest.ts): a folder's names, kept beside them, and its files' stamps, kept
 * in the section's coverage. A full check loads the stamps of the folders whose files changed
 * only, and still sees every change; a record written by anyone (another command, an older
 * pi-session) ends its folder's fingerprint, so a file put back as it was is read again.
 * Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { type CheckMode, RACY_MS } from "../../src/catalog/folder-check.ts";
import { namesDigest, stampsDigest } from "../../src/catalog/folder-digest.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { openRawSqlite, sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const binding = await sqliteBinding();
const noSqlite = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

const SESSIONS = "/agent/sessions";
const P = `${SESSIONS}/--work-p--`;
const Q = `${SESSIONS}/--work-q--`;
const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 0, 1);

test("the fingerprints change with a name, its place, a size, an mtime to the fraction, and are undefined without a file", () => {
  const file = { isFile: true, isDirectory: false, size: 10, mtimeMs: 1_767_225_600_000.25, mode: 0o600 };
  assert.equal(namesDigest(["a.jsonl", "b.jsonl"]), namesDigest(["a.jsonl", "b.jsonl"]));
  assert.match(namesDigest([]), /^[0-9a-f]{16}$/);
  const names = new Set([namesDigest(["a.jsonl", "b.jsonl"]), namesDigest(["b.jsonl", "a.jsonl"]), namesDigest(["a.jsonlb", ".jsonl"]), namesDigest(["a.jsonl"])]);
  assert.equal(names.size, 4);
  const stamps = new Set([
    stampsDigest(["a"], [file]),
    stampsDigest(["a"], [{ ...file, size: 11 }]),
    stampsDigest(["a"], [{ ...file, mtimeMs: file.mtimeMs + 0.001 }]),
    stampsDigest(["b"], [file]),
  ]);
  assert.equal(stamps.size, 4);
  assert.equal(stampsDigest(["a"], [null]), undefined);
  assert.equal(stampsDigest(["a"], [{ ...file, isFile: false, isDirectory: true }]), undefined);
});

/**
 * Sessions in two project folders, a SQLite store whose folder names and stamps by folder are
 * counted as they are read, and `list(mode)`: the listing rows after a refresh in `mode`, as
 * `list --all` shows them (message counts by file).
 */
async function setup(t: { after(fn: () => void): void }) {
  let clock = START;
  const fs = new MemoryFileSystem({ clock: () => clock });
  for (const dir of [P, Q]) await fs.mkdir(dir, { recursive: true });
  await fs.writeAtomic(`${P}/a.jsonl`, utf8(sessionText("a", 2)));
  await fs.writeAtomic(`${P}/b.jsonl`, utf8(sessionText("b", 1)));
  await fs.writeAtomic(`${Q}/c.jsonl`, utf8(sessionText("c", 1)));
  clock += 2 * DAY;
  const work = mkdtempSync(join(tmpdir(), "pi-session-digests-"));
  const path = join(work, "catalog.sqlite");
  let store = await openSqliteStore(path);
  t.after(() => {
    store.close();
    rmSync(work, { recursive: true, force: true });
  });
  const read = { stampsOf: [] as string[], names: [] as string[] };
  // Through to the store open now (`reopen` opens it again, after `change` had the file raw).
  const spied = new Proxy({} as SqliteCatalogStore, {
    get(_, key) {
      const target = store;
      if (key === "loadNamesIn") return (section: never, folder: string) => (read.stampsOf.push(folder), target.loadNamesIn(section, folder));
      if (key === "loadFolders") {
        return async () => {
          const snapshot = await target.loadFolders();
          for (const [folder, record] of snapshot.folders) {
            snapshot.folders.set(folder, new Proxy(record, {
              get: (r, k) => ((k === "lines" || k === "names") && read.names.push(folder), Reflect.get(r, k)),
            }));
          }
          return snapshot;
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as SqliteCatalogStore;
  const reopen = async (change: (raw: Awaited<ReturnType<typeof openRawSqlite>>) => void) => {
    store.close();
    const raw = await openRawSqlite(path);
    try {
      change(raw);
    } finally {
      raw.close();
    }
    store = await openSqliteStore(path);
    return store;
  };
  const list = async (mode: CheckMode): Promise<Record<string, number>> => {
    read.stampsOf.length = read.names.length = 0;
    const catalog = new Catalog(fs, { store: spied, check: mode, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    assert.ok(await catalog.refreshRows(listingDigest, listing, SESSIONS));
    const shown = [...store.listRows.ordered(listingDigest.version, listing.folders, "modified", true)].map((row) => [row.path.slice(SESSIONS.length + 1), row.messages]);
    return Object.fromEntries(shown.sort());
  };
  const fingerprinted = async () => [...(await store.loadCoverage(listingDigest)).stamps!.keys()].sort();
  return { fs, store, reopen, list, read, fingerprinted, tick: (ms: number) => (clock += ms), at: (ms: number) => (clock = ms) };
}

const ALL = { "--work-p--/a.jsonl": 4, "--work-p--/b.jsonl": 2, "--work-q--/c.jsonl": 2 };

test(`a full check (${driver}) loads the stamps of no folder whose files match its fingerprint, and of the changed ones only`, { skip: noSqlite }, async (t) => {
  const { fs, list, read, fingerprinted, tick } = await setup(t);
  assert.deepEqual(await list("full"), ALL);
  // The cold build read every file: the first full check after it finds them current, and keeps their fingerprints.
  assert.deepEqual(await fingerprinted(), []);
  tick(RACY_MS);
  assert.deepEqual(await list("full"), ALL);
  assert.deepEqual(read.stampsOf.sort(), [P, Q]);
  assert.deepEqual(await fingerprinted(), [P, Q]);
  tick(1000);
  assert.deepEqual(await list("full"), ALL);
  assert.deepEqual(read.stampsOf, [], "every folder as its fingerprint has it");
  assert.deepEqual(read.names, [], "no folder's names read: their fingerprint compared");
  // An append (its folder's mtime unchanged): only that folder's stamps are loaded.
  await fs.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  tick(1000);
  assert.deepEqual(await list("full"), { ...ALL, "--work-q--/c.jsonl": 4 });
  assert.deepEqual(read.stampsOf, [Q]);
  assert.deepEqual(await fingerprinted(), [P], "the folder read has no fingerprint until a check finds it current");
  tick(1000);
  assert.deepEqual(await list("full"), { ...ALL, "--work-q--/c.jsonl": 4 });
  assert.deepEqual(await fingerprinted(), [P, Q]);
  // A rewrite of the same size, a removal and a new session: each seen.
  await fs.writeAtomic(`${P}/b.jsonl`, utf8(sessionText("B", 1)));
  await fs.remove(`${Q}/c.jsonl`);
  await fs.writeAtomic(`${Q}/d.jsonl`, utf8(sessionText("d", 2)));
  tick(RACY_MS);
  assert.deepEqual(await list("full"), { "--work-p--/a.jsonl": 4, "--work-p--/b.jsonl": 2, "--work-q--/d.jsonl": 4 });
  assert.deepEqual(read.stampsOf.sort(), [P, Q]);
});

test(`a record written by another command (${driver}) ends its folder's fingerprint: a file put back as it was is read again`, { skip: noSqlite }, async (t) => {
  const { fs, store, list, fingerprinted, tick, at } = await setup(t);
  await list("full");
  tick(RACY_MS);
  await list("full");
  assert.deepEqual(await fingerprinted(), [P, Q]);
  const c = `${Q}/c.jsonl`;
  const was = await fs.stat(c);
  const original = fs.readSync(c).slice();
  const now = Date.UTC(2026, 0, 3, 12);
  // Another command brings c's record up to date (an append it saw), and nothing else.
  await fs.append(c, utf8(sessionText("c", 1, { from: 1 })));
  await new Catalog(fs, { store, now: () => now }).refresh([listingDigest], [c], {});
  assert.deepEqual(await fingerprinted(), [P], "the record written ended its folder's fingerprint");
  // c put back byte for byte with its old mtime (a restore, a sync tool): its old stamp again.
  at(was!.mtimeMs);
  await fs.writeAtomic(c, original);
  assert.deepEqual(await fs.stat(c), was);
  at(now + RACY_MS);
  assert.deepEqual(await list("full"), ALL);
});

test(`a quick check that reads a recent session (${driver}) keeps the fingerprints of the other folders taken whole, not of its own`, { skip: noSqlite }, async (t) => {
  const { fs, list, read, fingerprinted, tick } = await setup(t);
  await fs.writeAtomic(`${P}/d.jsonl`, utf8(sessionText("d", 1)));
  tick(RACY_MS);
  await list("full");
  tick(1000);
  await list("full");
  assert.deepEqual(await fingerprinted(), [P, Q]);
  // d is recent: a quick check stats it in its folder taken whole, reads its append and writes its record.
  await fs.append(`${P}/d.jsonl`, utf8(sessionText("d", 1, { from: 1 })));
  tick(1000);
  assert.deepEqual(await list("auto"), { ...ALL, "--work-p--/d.jsonl": 4 });
  assert.deepEqual(await fingerprinted(), [Q]);
  tick(1000);
  assert.deepEqual(await list("full"), { ...ALL, "--work-p--/d.jsonl": 4 });
  assert.deepEqual(read.stampsOf, [P]);
  assert.deepEqual(await fingerprinted(), [P, Q]);
});

test(`a record of another section (${driver}) leaves the listing's fingerprints alone`, { skip: noSqlite }, async (t) => {
  const { store, list, fingerprinted, tick } = await setup(t);
  await list("full");
  tick(RACY_MS);
  await list("full");
  const { docsDigest } = await import("../../src/core/digest/docs-digest.ts");
  const fs = new MemoryFileSystem();
  await fs.mkdir(Q, { recursive: true });
  await fs.writeAtomic(`${Q}/c.jsonl`, utf8(sessionText("c", 1)));
  await new Catalog(fs, { store }).refresh([docsDigest], [`${Q}/c.jsonl`], {});
  assert.deepEqual(await fingerprinted(), [P, Q]);
});

test(`a catalog made before the fingerprints (${driver}) gets their columns, keeps its coverage, and its folders' fingerprints at the next listing`, { skip: noSqlite }, async (t) => {
  const { reopen, list, read, fingerprinted, tick } = await setup(t);
  await list("full");
  tick(RACY_MS);
  await list("full");
  // The tables as a build before the fingerprints made them.
  const store = await reopen((raw) =>
    raw.exec(`DROP TRIGGER covered_stamps_put; DROP TRIGGER covered_stamps_update; DROP INDEX covered_stamped; ALTER TABLE covered DROP COLUMN stamps;
      DROP INDEX folders_digests; CREATE INDEX folders_stamps ON folders (path, mtime, listed); ALTER TABLE folders DROP COLUMN digest; PRAGMA application_id = 0;`)
  );
  const coverage = await store.loadCoverage(listingDigest);
  assert.deepEqual([...coverage.folders.keys()].sort(), [P, Q], "the coverage is kept");
  assert.deepEqual(coverage.stamps, new Map());
  const before = await store.loadFolders();
  assert.deepEqual([...before.folders.values()].map((folder) => folder.digest), [undefined, undefined, undefined]);
  let indexes: string[] = [];
  await reopen((raw) => {
    indexes = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'folders' AND sql IS NOT NULL").values().map((row) => String(row[0]));
  });
  assert.deepEqual(indexes.sort(), ["folders_counts", "folders_digests"]);
  // The next full check saves each folder again with the fingerprint of its names, and the files' fingerprints.
  tick(1000);
  assert.deepEqual(await list("full"), ALL);
  assert.deepEqual(await fingerprinted(), [P, Q]);
  tick(1000);
  assert.deepEqual(await list("full"), ALL);
  assert.deepEqual(read.names, []);
  assert.deepEqual(read.stampsOf, []);
});
