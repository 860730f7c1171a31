/**
 * The quick check without stamps (src/catalog/covered-check.ts): with a section's coverage in a
 * SQLite store, a quick check stats the folders and the recent files only, and still sees what
 * the quick check promises (new, removed and renamed sessions, appends to recent ones); what it
 * does not promise (a change that leaves the folder's mtime alone, to an older file) a full
 * check sees. Writes to the records by anyone else drop the coverage.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { type CheckMode, FULL_CHECK_EVERY_MS, RACY_MS } from "../../src/catalog/folder-check.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { FEW_CHANGES } from "../../src/catalog/stamp-checks.ts";
import type { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { searchSessions } from "../../src/catalog/search-sessions.ts";
import { docFilter } from "../../src/core/search/doc-filter.ts";
import { parseSearchQuery } from "../../src/core/search/query.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { pinnedStatFs, sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const binding = await sqliteBinding();
const noSqlite = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

const SESSIONS = "/agent/sessions";
const P = `${SESSIONS}/--work-p--`;
const Q = `${SESSIONS}/--work-q--`;
const DAY = 24 * 60 * 60 * 1000;

/**
 * Three sessions written two days "ago" in two project folders, a SQLite store, and `check`:
 * whether the docs section is current for every session by a check in `mode` (as `search`
 * asks before it searches), refreshed when it is not (as `search` then does). Each check
 * records the stats made and whether every stamp was loaded.
 */
async function setup(t: { after(fn: () => void): void }) {
  let clock = Date.UTC(2026, 0, 1);
  const memory = new MemoryFileSystem({ clock: () => clock });
  for (const dir of [P, Q]) await memory.mkdir(dir, { recursive: true });
  await memory.writeAtomic(`${P}/a.jsonl`, utf8(sessionText("a", 2)));
  await memory.writeAtomic(`${P}/b.jsonl`, utf8(sessionText("b", 1)));
  await memory.writeAtomic(`${Q}/c.jsonl`, utf8(sessionText("c", 1)));
  clock += 2 * DAY;
  // Folders whose mtime a test puts back after changing them (what a clock step or a copy can do).
  const pinned = new Map<string, number>();
  const stats: string[] = [];
  const fs = pinnedStatFs(memory, pinned, (path) => stats.push(path));
  const work = mkdtempSync(join(tmpdir(), "pi-session-covered-"));
  const store = await openSqliteStore(join(work, "catalog.sqlite"));
  t.after(() => {
    store.close();
    rmSync(work, { recursive: true, force: true });
  });
  let stampsLoaded = 0;
  /** Saves to the store that changed something (records put or removed, documents). */
  let writes = 0;
  const rows = store.listRows;
  const spiedRows = new Proxy(rows, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === "stamps") return (...args: Parameters<typeof target.stamps>) => (stampsLoaded++, target.stamps(...args));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const spied = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === "loadStamps") return (...args: Parameters<typeof target.loadStamps>) => (stampsLoaded++, target.loadStamps(...args));
      if (key === "eachStamp") return (...args: Parameters<typeof target.eachStamp>) => (stampsLoaded++, target.eachStamp(...args));
      if (key === "save") {
        return (...args: Parameters<typeof target.save>) => {
          const [, changes] = args;
          if (changes.put.length + changes.remove.length + (changes.docs?.length ?? 0) > 0) writes++;
          return target.save(...args);
        };
      }
      if (key === "listRows") return spiedRows;
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as SqliteCatalogStore;
  /** What the last check saw: its stats, whether it loaded stamps, and whether `unchanged` answered current (having read what changed itself, or not). */
  const seen = { stats: [] as string[], stampsLoaded: false, current: false };
  /**
   * Whether the check found the section current with nothing to read: `unchanged` may read a few
   * changed files itself (and answer current), else the caller refreshes; either way, false.
   */
  const check = async (mode: CheckMode = "auto"): Promise<boolean> => {
    stats.length = 0;
    stampsLoaded = 0;
    writes = 0;
    const catalog = new Catalog(fs, { store: spied, check: mode, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    const options = { listing, listedDirs: [SESSIONS] };
    // As search asks: the few files that changed read by the check itself.
    const current = await catalog.unchanged(docsDigest, undefined, { ...options, readChanged: true });
    seen.stats = [...stats];
    seen.stampsLoaded = stampsLoaded > 0;
    seen.current = current;
    const wrote = writes > 0;
    if (!current) await catalog.refresh([docsDigest], listing.files, options);
    return current && !wrote;
  };
  /** What `list --all` shows after a refresh of the listing rows in `mode`: message counts by file name. */
  const list = async (mode: CheckMode = "auto"): Promise<Record<string, number>> => {
    stats.length = 0;
    stampsLoaded = 0;
    const catalog = new Catalog(fs, { store: spied, check: mode, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    assert.ok(await catalog.refreshRows(listingDigest, listing, SESSIONS));
    seen.stats = [...stats];
    seen.stampsLoaded = stampsLoaded > 0;
    const shown = [...rows.ordered(listingDigest.version, listing.folders, "modified", true)].map((row) => [row.path.slice(SESSIONS.length + 1), row.messages]);
    return Object.fromEntries(shown.sort());
  };
  const pin = async (dir: string) => pinned.set(dir, (await memory.stat(dir))!.mtimeMs);
  /** A search on a terminal (which scans rather than build a cold index): whether it found the index cold. */
  const search = async (): Promise<boolean> => {
    stampsLoaded = 0;
    const catalog = new Catalog(fs, { store: spied, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    const scope = { get files() {
      return listing.files;
    }, dirs: [SESSIONS], listing };
    const options = { limit: 5, filter: docFilter({}), scanWhenCold: true, refresh: { listing, listedDirs: [SESSIONS] } };
    const found = await searchSessions(catalog, scope, parseSearchQuery("question"), options);
    assert.ok(found.result.hits.length > 0);
    seen.stampsLoaded = stampsLoaded > 0;
    return found.indexCold === true;
  };
  /**
   * Two sections checked over one listing, as `search` printing short ids does: the documents
   * (`unchanged`), then the listing's ids (`headerIdIndex`). Its stats are in `seen.stats`.
   */
  const twoSections = async (mode: CheckMode) => {
    stats.length = 0;
    const catalog = new Catalog(fs, { store: spied, check: mode, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    const docs = await catalog.unchanged(docsDigest, undefined, { listing, listedDirs: [SESSIONS] });
    const ids = await catalog.headerIdIndex(listingDigest, listing, [SESSIONS]);
    seen.stats = [...stats];
    return { docs, unread: ids?.unread };
  };
  return { fs: memory, store, check, list, search, twoSections, seen, pin, tick: (ms: number) => (clock += ms) };
}

test(`a quick check with coverage (${driver}) loads no stamp and stats the folders only, then the recent files`, { skip: noSqlite }, async (t) => {
  const { fs, check, seen, tick } = await setup(t);
  assert.equal(await check(), false, "nothing stored yet");
  assert.equal(await check("full"), true);
  tick(1000);
  assert.equal(await check(), true);
  assert.equal(seen.stampsLoaded, false);
  assert.deepEqual(seen.stats.sort(), [SESSIONS, P, Q]);
  // A new session: its folder changes; read, then current again.
  tick(RACY_MS);
  await fs.writeAtomic(`${P}/d.jsonl`, utf8(sessionText("d", 1)));
  tick(RACY_MS);
  assert.equal(await check(), false);
  assert.equal(await check(), true);
  assert.equal(seen.stampsLoaded, false, "the refresh left every folder covered");
  tick(1000);
  assert.equal(await check(), true);
  assert.equal(seen.stampsLoaded, false);
  // d was written within the day: it is stat'ed, and an append to it (its folder unchanged) is seen.
  assert.deepEqual(seen.stats.sort(), [SESSIONS, P, `${P}/d.jsonl`, Q]);
  await fs.append(`${P}/d.jsonl`, utf8(sessionText("d", 1, { from: 1 })));
  tick(1000);
  assert.equal(await check(), false, "an append to a recent session");
  assert.equal(await check(), true);
});

test(`a quick check with coverage (${driver}) sees a removed session, a removed folder and a new one`, { skip: noSqlite }, async (t) => {
  const { fs, check, tick } = await setup(t);
  await check();
  assert.equal(await check("full"), true);
  tick(RACY_MS);
  await fs.remove(`${P}/b.jsonl`);
  tick(RACY_MS);
  assert.equal(await check(), false, "a removed session");
  assert.equal(await check(), true);
  await fs.remove(`${Q}/c.jsonl`);
  await fs.remove(Q);
  tick(RACY_MS);
  assert.equal(await check(), false, "a removed folder");
  assert.equal(await check(), true);
  await fs.mkdir(`${SESSIONS}/--work-r--`);
  await fs.writeAtomic(`${SESSIONS}/--work-r--/e.jsonl`, utf8(sessionText("e", 1)));
  tick(RACY_MS);
  assert.equal(await check(), false, "a new folder");
  assert.equal(await check(), true);
});

test(`a quick check with coverage (${driver}) takes a change that left its folder's mtime alone on trust; a full check sees it`, { skip: noSqlite }, async (t) => {
  const { fs, check, pin, tick } = await setup(t);
  await check();
  assert.equal(await check("full"), true);
  tick(1000);
  // A new file whose folder's mtime is put back: the documented exception of the quick check.
  await pin(P);
  await fs.writeAtomic(`${P}/late.jsonl`, utf8(sessionText("late", 1)));
  // An append to an older session (two days old) never changes its folder.
  await fs.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  tick(1000);
  assert.equal(await check(), true);
  assert.equal(await check("full"), false);
  assert.equal(await check("full"), true);
});

test(`a full check with coverage (${driver}) stats every file and, where the folders' fingerprints hold, loads no stamp`, { skip: noSqlite }, async (t) => {
  const { fs, check, seen, tick } = await setup(t);
  await check();
  assert.equal(await check("full"), true);
  tick(1000);
  assert.equal(await check("full"), true);
  assert.equal(seen.stampsLoaded, false, "compared by the folders' fingerprints");
  assert.deepEqual(seen.stats.sort(), [SESSIONS, P, `${P}/a.jsonl`, `${P}/b.jsonl`, Q, `${Q}/c.jsonl`]);
  // An append to an older session (its folder unchanged): its folder's fingerprint differs.
  await fs.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  tick(1000);
  assert.equal(await check("full"), false);
  assert.equal(await check("full"), true);
});

test(`a full check of two sections over one listing (${driver}) stats each file once, and both see an append`, { skip: noSqlite }, async (t) => {
  const { fs, check, list, twoSections, seen, tick } = await setup(t);
  await list("full");
  await check("full");
  tick(1000);
  const files = [`${P}/a.jsonl`, `${P}/b.jsonl`, `${Q}/c.jsonl`];
  assert.deepEqual(await twoSections("full"), { docs: true, unread: [] });
  assert.deepEqual(seen.stats.filter((path) => path.endsWith(".jsonl")).sort(), files);
  // An append to an older session (its folder unchanged): each section finds it from the one stat.
  await fs.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  tick(1000);
  assert.deepEqual(await twoSections("full"), { docs: false, unread: [`${Q}/c.jsonl`] });
  assert.deepEqual(seen.stats.filter((path) => path.endsWith(".jsonl")).sort(), files);
});

test(`a check with coverage (${driver}) reads a few changed files itself and answers current, a full check loading no stamp`, { skip: noSqlite }, async (t) => {
  const { fs, store, check, seen, tick } = await setup(t);
  await check();
  assert.equal(await check("full"), true);
  tick(1000);
  // An append to an older session, a session removed: a full check finds both and brings them in.
  await fs.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  await fs.remove(`${P}/b.jsonl`);
  tick(RACY_MS);
  assert.equal(await check("full"), false, "something was read");
  assert.equal(seen.current, true, "read by the check itself");
  assert.equal(seen.stampsLoaded, false);
  const stored = await store.loadPaths(docsDigest, [`${Q}/c.jsonl`, `${P}/b.jsonl`]);
  assert.deepEqual([...stored.keys()], [`${Q}/c.jsonl`]);
  assert.equal(stored.get(`${Q}/c.jsonl`)!.size, (await fs.stat(`${Q}/c.jsonl`))!.size);
  tick(1000);
  assert.equal(await check("full"), true, "and the coverage put again");
  assert.equal(seen.stampsLoaded, false);
  // More than FEW_CHANGES new sessions: left to the caller's refresh, which shows its progress.
  for (let i = 0; i <= FEW_CHANGES; i++) await fs.writeAtomic(`${P}/n${i}.jsonl`, utf8(sessionText(`n${i}`, 1)));
  tick(RACY_MS);
  assert.equal(await check("full"), false);
  assert.equal(seen.current, false, "many changes: the caller refreshes");
  tick(1000);
  assert.equal(await check("full"), true);
});

test(`a record added or removed by another writer (${driver}) drops the section's coverage`, { skip: noSqlite }, async (t) => {
  const { store, check, tick } = await setup(t);
  await check();
  assert.equal(await check("full"), true);
  tick(1000);
  assert.equal(await check(), true);
  // Removed behind the catalog's back (another process): the stamps are loaded again and tell.
  await store.save(docsDigest, { put: [], remove: [`${P}/a.jsonl`], docs: [] });
  assert.equal(await check(), false);
  assert.equal(await check(), true);
  // A record of a file directly in the sessions dir, none of a project's: dropped by a refresh.
  const [record] = (await store.loadPaths(docsDigest, [`${P}/b.jsonl`])).values();
  await store.save(docsDigest, { put: [{ ...record, path: `${SESSIONS}/stray.jsonl` }], remove: [], docs: [] });
  assert.equal(await check(), false);
  assert.equal(await check(), true);
});

test(`SqliteCatalogStore.saveCoverage() (${driver}) saves nothing once another process wrote since the coverage was loaded`, { skip: noSqlite }, async () => {
  const work = mkdtempSync(join(tmpdir(), "pi-session-covered-"));
  const one = await openSqliteStore(join(work, "catalog.sqlite"));
  const other = await openSqliteStore(join(work, "catalog.sqlite"));
  try {
    const first = await one.loadCoverage(docsDigest);
    assert.equal(await one.saveCoverage(docsDigest, new Map([[P, 5]]), [], first.token), true);
    const second = await one.loadCoverage(docsDigest);
    assert.deepEqual(second.folders, new Map([[P, 5]]));
    await other.saveFolders([], [], new Map([["docs@2", 1]]));
    assert.equal(await one.saveCoverage(docsDigest, new Map([[Q, 6]]), [P], second.token), false);
    assert.deepEqual((await other.loadCoverage(docsDigest)).folders, new Map([[P, 5]]));
    await one.clear();
    assert.deepEqual((await one.loadCoverage(docsDigest)).folders, new Map());
  } finally {
    one.close();
    other.close();
    rmSync(work, { recursive: true, force: true });
  }
});

test(`the listing rows (${driver}) refreshed by a quick check with coverage: no stamp loaded, and what the quick check promises seen`, { skip: noSqlite }, async (t) => {
  const { fs, list, seen, pin, tick } = await setup(t);
  const all = { "--work-p--/a.jsonl": 4, "--work-p--/b.jsonl": 2, "--work-q--/c.jsonl": 2 };
  assert.deepEqual(await list(), all);
  assert.deepEqual(await list("full"), all);
  tick(1000);
  // The first quick check compares the records (and covers every folder), the next ones need no stamp.
  assert.deepEqual(await list(), all);
  tick(1000);
  assert.deepEqual(await list(), all);
  assert.equal(seen.stampsLoaded, false);
  assert.deepEqual(seen.stats.sort(), [SESSIONS, `${SESSIONS}/--work-p--`, `${SESSIONS}/--work-q--`]);
  // A new session, then an append to it (its folder unchanged: it is recent).
  tick(RACY_MS);
  await fs.writeAtomic(`${P}/d.jsonl`, utf8(sessionText("d", 1)));
  tick(RACY_MS);
  assert.deepEqual(await list(), { ...all, "--work-p--/d.jsonl": 2 });
  await fs.append(`${P}/d.jsonl`, utf8(sessionText("d", 1, { from: 1 })));
  tick(1000);
  assert.deepEqual(await list(), { ...all, "--work-p--/d.jsonl": 4 });
  assert.equal(seen.stampsLoaded, false);
  // A removed session.
  tick(RACY_MS);
  await fs.remove(`${P}/b.jsonl`);
  tick(RACY_MS);
  const left = { "--work-p--/a.jsonl": 4, "--work-p--/d.jsonl": 4, "--work-q--/c.jsonl": 2 };
  assert.deepEqual(await list(), left);
  assert.equal(seen.stampsLoaded, false);
  // A new file whose folder's mtime is put back, and an append to an older session: a full check sees them.
  tick(1000);
  await pin(P);
  await fs.writeAtomic(`${P}/late.jsonl`, utf8(sessionText("late", 1)));
  await fs.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  tick(1000);
  assert.deepEqual(await list(), left);
  assert.deepEqual(await list("full"), { ...left, "--work-p--/late.jsonl": 2, "--work-q--/c.jsonl": 4 });
});

test(`a search on a terminal (${driver}) tells a warm index by its coverage, without loading stamps`, { skip: noSqlite }, async (t) => {
  const { search, check, seen, tick } = await setup(t);
  assert.equal(await search(), true, "nothing indexed yet: the files are scanned");
  await check();
  assert.equal(await check("full"), true);
  tick(1000);
  assert.equal(await search(), false);
  assert.equal(seen.stampsLoaded, false);
});

test(`the listing rows (${driver}) a minute after the last full check are checked in full, coverage or not`, { skip: noSqlite }, async (t) => {
  const { fs, list, tick } = await setup(t);
  await list();
  await list("full");
  tick(1000);
  const all = { "--work-p--/a.jsonl": 4, "--work-p--/b.jsonl": 2, "--work-q--/c.jsonl": 2 };
  assert.deepEqual(await list(), all);
  // An append to an older session: its folder keeps its mtime, and the folder stays covered.
  await fs.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  tick(1000);
  assert.deepEqual(await list(), all);
  tick(FULL_CHECK_EVERY_MS);
  assert.deepEqual(await list(), { ...all, "--work-q--/c.jsonl": 4 });
});

test(`the listing rows (${driver}) checked in full through a file system that stats at once: every file by statNow, none through a promise`, { skip: noSqlite }, async (t) => {
  const { fs: memory, list, seen, tick } = await setup(t);
  await list();
  await list("full");
  tick(1000);
  // The same memory disk, with the blocking stat the node and bun adapters have.
  const now: string[] = [];
  const statNow = (path: string) => (now.push(path), memory.statSync(path));
  const withNow = new Proxy(memory, {
    get(target, key) {
      if (key === "statNow") return statNow;
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const store = await openSqliteStore(join(mkdtempSync(join(tmpdir(), "pi-session-covered-now-")), "catalog.sqlite"));
  t.after(() => store.close());
  const rowsOf = async (mode: CheckMode) => {
    now.length = 0;
    const catalog = new Catalog(withNow, { store, check: mode, now: () => Date.UTC(2026, 0, 3, 1) });
    const listing = await catalog.listFiles(SESSIONS, true);
    assert.ok(await catalog.refreshRows(listingDigest, listing, SESSIONS));
    const shown = [...store.listRows.ordered(listingDigest.version, listing.folders, "modified", true)].map((row) => [row.path.slice(SESSIONS.length + 1), row.messages]);
    return Object.fromEntries(shown.sort());
  };
  const all = { "--work-p--/a.jsonl": 4, "--work-p--/b.jsonl": 2, "--work-q--/c.jsonl": 2 };
  assert.deepEqual(await rowsOf("full"), all);
  assert.deepEqual(await rowsOf("full"), all);
  assert.deepEqual(now.sort(), [`${P}/a.jsonl`, `${P}/b.jsonl`, `${Q}/c.jsonl`]);
  // An append, and a removed session: seen by the blocking stats as by the promised ones.
  await memory.append(`${Q}/c.jsonl`, utf8(sessionText("c", 1, { from: 1 })));
  await memory.remove(`${P}/b.jsonl`);
  tick(RACY_MS);
  const after = { "--work-p--/a.jsonl": 4, "--work-q--/c.jsonl": 4 };
  assert.deepEqual(await rowsOf("full"), after);
  assert.deepEqual(await list("full"), after, "the stat of the setup's disk agrees");
  assert.equal(seen.stats.includes(`${P}/a.jsonl`), true);
});

test(`a full check of the listing rows (${driver}) drops the records of files gone from outside every folder it compares`, { skip: noSqlite }, async (t) => {
  const { fs, store, list, tick } = await setup(t);
  await list("full");
  // A session directly in the sessions dir (no project folder lists it) and one in a folder
  // left empty: both had records made by a refresh that named them.
  const stray = `${SESSIONS}/stray.jsonl`;
  const gone = `${SESSIONS}/--work-gone--/d.jsonl`;
  await fs.writeAtomic(stray, utf8(sessionText("s", 1)));
  await fs.mkdir(`${SESSIONS}/--work-gone--`, { recursive: true });
  await fs.writeAtomic(gone, utf8(sessionText("d", 1)));
  const catalog = new Catalog(fs, { store, now: () => Date.UTC(2026, 0, 3) });
  await catalog.refresh([listingDigest], [stray, gone], {});
  await fs.remove(stray);
  await fs.remove(gone);
  const stamped = async () => [...(await store.loadStampsIn(listingDigest, [SESSIONS])).keys()].sort();
  assert.deepEqual(await stamped(), [`${P}/a.jsonl`, `${P}/b.jsonl`, gone, stray, `${Q}/c.jsonl`].sort());
  tick(RACY_MS);
  const all = { "--work-p--/a.jsonl": 4, "--work-p--/b.jsonl": 2, "--work-q--/c.jsonl": 2 };
  assert.deepEqual(await list("full"), all);
  assert.deepEqual(await stamped(), [`${P}/a.jsonl`, `${P}/b.jsonl`, `${Q}/c.jsonl`]);
});
