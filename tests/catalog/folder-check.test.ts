/**
 * The quick check (src/catalog/folder-check.ts): unchanged folders are not listed again and their
 * older files are taken on trust while a full check is recent; what it cannot see (a file changed
 * without its folder changing) a later full check sees, forced or after a minute.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, utimesSync, appendFileSync, statSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FULL_CHECK_EVERY_MS, HOT_MS, listThroughFolders, PUT_OFF_AT_MOST_MS, RACY_MS } from "../../src/catalog/folder-check.ts";
import type { FolderRecord } from "../../src/catalog/store.ts";
import { listAllCached } from "../../src/catalog/list-cached.ts";
import type { CatalogMode } from "../../src/catalog/open-catalog.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { withFileLock } from "../../src/io/lock.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sessionText, utf8 } from "./_helpers.ts";

const AGENT = "/agent";
const DIR = `${AGENT}/sessions/--work-p--`;
const A = `${DIR}/a.jsonl`;
const B = `${DIR}/b.jsonl`;
const DAY = 24 * 60 * 60 * 1000;

/** A memory file system whose clock the test sets, with two sessions written two days "ago". */
async function setup() {
  let clock = Date.UTC(2026, 0, 1);
  const fs = new MemoryFileSystem({ clock: () => clock });
  await fs.mkdir(DIR, { recursive: true });
  await fs.writeAtomic(A, utf8(sessionText("a", 2)));
  await fs.writeAtomic(B, utf8(sessionText("b", 1)));
  clock += 2 * DAY;
  /** What `list --all` gives at this moment: each session's message count, by file name. */
  const list = async (check: "auto" | "full" = "auto", fileSystem: FileSystem = fs) => {
    const sessions = await listAllCached(fileSystem, { agentDir: AGENT }, { cacheDir: "/cache", mode: "file" as CatalogMode, now: () => new Date(clock), check });
    return Object.fromEntries(sessions.map((s) => [s.path.slice(DIR.length + 1), s.messageCount]));
  };
  return { fs, list, tick: (ms: number) => (clock += ms), now: () => clock };
}

/** Counts the directory listings and stats made through `fs`. */
function counting(fs: FileSystem): { fs: FileSystem; lists: string[]; stats: string[] } {
  const lists: string[] = [];
  const stats: string[] = [];
  const wrapped = new Proxy(fs, {
    get(target, key) {
      if (key === "list") return (dir: string) => (lists.push(dir), target.list(dir));
      if (key === "stat") return (path: string) => (stats.push(path), target.stat(path));
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { fs: wrapped, lists, stats };
}

test("listAllCached() with a recent full check lists no unchanged folder and stats no older file", async () => {
  const { fs, list, tick } = await setup();
  assert.deepEqual(await list(), { "a.jsonl": 4, "b.jsonl": 2 });
  tick(1000);
  const seen = counting(fs);
  assert.deepEqual(await list("auto", seen.fs), { "a.jsonl": 4, "b.jsonl": 2 });
  assert.deepEqual(seen.lists.filter((dir) => dir.startsWith(AGENT)), []);
  assert.deepEqual(seen.stats.filter((path) => path.startsWith(DIR + "/")), []);
});

test("listAllCached() sees a file changed without its folder changing on a later full check", async () => {
  const { fs, list, tick } = await setup();
  assert.deepEqual(await list(), { "a.jsonl": 4, "b.jsonl": 2 });
  tick(1000);
  // An append changes the file's mtime, never its folder's.
  const folderBefore = (await fs.stat(DIR))!.mtimeMs;
  await fs.append(A, utf8(sessionText("a", 1, { from: 2 })));
  assert.equal((await fs.stat(DIR))!.mtimeMs, folderBefore);
  tick(1000);
  // The quick check takes the older file on trust (the guarantee it gives: up to a minute late).
  assert.deepEqual(await list(), { "a.jsonl": 4, "b.jsonl": 2 });
  // A forced full check sees it at once.
  assert.deepEqual(await list("full"), { "a.jsonl": 6, "b.jsonl": 2 });
});

test("listAllCached() makes a full check again once the last one is over a minute old", async () => {
  const { fs, list, tick } = await setup();
  await list();
  tick(1000);
  await fs.append(B, utf8(sessionText("b", 2, { from: 1 })));
  tick(FULL_CHECK_EVERY_MS);
  assert.deepEqual(await list(), { "a.jsonl": 4, "b.jsonl": 6 });
});

test("listAllCached() with `later` puts off a full check over a minute old: the quick check, and the promise called", async () => {
  const { fs, list, tick, now } = await setup();
  await list();
  tick(1000);
  await fs.append(B, utf8(sessionText("b", 2, { from: 1 })));
  tick(FULL_CHECK_EVERY_MS);
  let promised = 0;
  const later = async () => {
    const sessions = await listAllCached(fs, { agentDir: AGENT }, { cacheDir: "/cache", mode: "file" as CatalogMode, now: () => new Date(now()), later: () => void promised++ });
    return Object.fromEntries(sessions.map((s) => [s.path.slice(DIR.length + 1), s.messageCount]));
  };
  // Older b was changed without its folder: taken on trust, and the caller told it owes a full check.
  assert.deepEqual(await later(), { "a.jsonl": 4, "b.jsonl": 2 });
  assert.ok(promised > 0);
  // The full check it makes sees the change and is recorded: a run within the minute has nothing to put off.
  assert.deepEqual(await list("full"), { "a.jsonl": 4, "b.jsonl": 6 });
  promised = 0;
  tick(1000);
  assert.deepEqual(await later(), { "a.jsonl": 4, "b.jsonl": 6 });
  assert.equal(promised, 0);
  // A last full check over a day old is not put off (the promised checks may never have come): made at once.
  await fs.append(A, utf8(sessionText("a", 1, { from: 2 })));
  tick(PUT_OFF_AT_MOST_MS + 1000);
  assert.deepEqual(await later(), { "a.jsonl": 6, "b.jsonl": 6 });
  assert.equal(promised, 0);
});

test("listAllCached() with `later` still checks in full at once a catalog that never had a full check", async () => {
  const { fs, now } = await setup();
  let promised = 0;
  const sessions = await listAllCached(fs, { agentDir: AGENT }, { cacheDir: "/cache", mode: "file" as CatalogMode, now: () => new Date(now()), later: () => void promised++ });
  assert.equal(sessions.length, 2);
  assert.equal(promised, 0);
});

test("listAllCached() in a quick check still sees a new session, a removed one, and an append to a recent one", async () => {
  const { fs, list, tick } = await setup();
  await list();
  tick(1000);
  await fs.append(A, utf8(sessionText("a", 1, { from: 2 })));
  tick(1000);
  assert.deepEqual(await list("full"), { "a.jsonl": 6, "b.jsonl": 2 });
  tick(1000);
  // A file modified lately (within a day, as last seen) is stat'ed even in a quick check.
  await fs.append(A, utf8(sessionText("a", 1, { from: 3 })));
  tick(1000);
  assert.deepEqual(await list(), { "a.jsonl": 8, "b.jsonl": 2 });
  // New and removed names change the folder's mtime.
  tick(RACY_MS);
  await fs.writeAtomic(`${DIR}/c.jsonl`, utf8(sessionText("c", 1)));
  await fs.remove(B);
  tick(1000);
  assert.deepEqual(await list(), { "a.jsonl": 8, "c.jsonl": 2 });
  assert.ok(HOT_MS >= DAY);
});

test("listAllCached() in a quick check sees at once an append made under the file lock, as pi-session's own writers make them", async () => {
  const { fs, list, tick } = await setup();
  await list();
  tick(1000);
  // The lock is a folder made beside the file and removed after: the session's folder changes.
  await withFileLock(fs, A, () => fs.append(A, utf8(sessionText("a", 1, { from: 2 }))));
  tick(1000);
  assert.deepEqual(await list(), { "a.jsonl": 6, "b.jsonl": 2 });
});

test("listAllCached() lists a folder again when it changed within the same mtime tick as its last listing", async () => {
  const { fs, list } = await setup();
  // Listed at the very moment of its last change: a coarse clock could give a later change the same mtime.
  await fs.writeAtomic(`${DIR}/c.jsonl`, utf8(sessionText("c", 1)));
  assert.deepEqual(await list(), { "a.jsonl": 4, "b.jsonl": 2, "c.jsonl": 2 });
  await fs.writeAtomic(`${DIR}/d.jsonl`, utf8(sessionText("d", 1)));
  assert.deepEqual(await list(), { "a.jsonl": 4, "b.jsonl": 2, "c.jsonl": 2, "d.jsonl": 2 });
});

test("on the real disk, an append with the folder's mtime put back is seen by a later full check", async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-session-folder-check-"));
  try {
    const agent = join(root, "agent");
    const dir = join(agent, "sessions", "--work-p--");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "a.jsonl");
    writeFileSync(file, sessionText("a", 2));
    // Both two days old: the folder is not racy, the file not recent.
    const old = new Date(Date.now() - 2 * DAY);
    utimesSync(file, old, old);
    utimesSync(dir, old, old);
    const fs = detectFileSystem();
    const cacheDir = join(root, "cache");
    const list = async (check: "auto" | "full") =>
      (await listAllCached(fs, { agentDir: agent }, { cacheDir, mode: "file", check })).map((s) => s.messageCount);
    assert.deepEqual(await list("auto"), [4]);
    const folder = statSync(dir);
    appendFileSync(file, sessionText("a", 1, { from: 2 }));
    utimesSync(file, old, new Date(old.getTime() + 1000));
    utimesSync(dir, folder.atime, folder.mtime);
    assert.deepEqual(await list("auto"), [4]);
    assert.deepEqual(await list("full"), [6]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("listThroughFolders() in a full check finds a folder listed again in its stored order unchanged without splitting its stored names", async () => {
  const { fs, now } = await setup();
  const names = (await fs.list(DIR)).map((entry) => entry.name);
  const mtimeMs = (await fs.stat(DIR))!.mtimeMs;
  let split = 0;
  const stored = (lines: string): FolderRecord => ({
    path: DIR,
    mtimeMs,
    listedMs: mtimeMs + RACY_MS,
    lines,
    get names() {
      split++;
      return lines.split("\n");
    },
  });
  const snapshot = (lines: string) => ({ folders: new Map([[DIR, stored(lines)]]), fullChecks: new Map<string, number>() });
  const inOrder = await listThroughFolders(fs, snapshot(names.join("\n")), DIR, { nested: false, mode: "full", now: now() });
  assert.deepEqual(inOrder.listed, [], "unchanged: nothing to save");
  assert.equal(split, 0);
  // In another order the names are compared one by one: still unchanged.
  const reversed = await listThroughFolders(fs, snapshot([...names].reverse().join("\n")), DIR, { nested: false, mode: "full", now: now() });
  assert.deepEqual(reversed.listed, []);
  assert.equal(split > 0, true);
  // A name gone: saved again.
  const more = await listThroughFolders(fs, snapshot([...names, "gone.jsonl"].join("\n")), DIR, { nested: false, mode: "full", now: now() });
  assert.deepEqual(more.listed.map((folder) => folder.names.slice().sort()), [names.slice().sort()]);
});

test("listThroughFolders() answers filesIn, namesIn and countIn the same before and after its files are made", async () => {
  const { fs, now } = await setup();
  const other = `${AGENT}/sessions/--work-q--`;
  await fs.mkdir(other, { recursive: true });
  for (const name of ["c.jsonl", "e.jsonl", "d.jsonl"]) await fs.writeAtomic(`${other}/${name}`, utf8(sessionText(name, 1)));
  await fs.mkdir(`${AGENT}/sessions/--work-empty--`, { recursive: true });
  const listing = await listThroughFolders(fs, null, `${AGENT}/sessions`, { nested: true, mode: "full", now: now() });
  const answers = () =>
    [...listing.folders, `${AGENT}/sessions/--not-there--`].map((folder) => ({ files: listing.filesIn(folder), names: listing.namesIn(folder), count: listing.countIn(folder) }));
  const before = answers();
  assert.equal(listing.madeFiles(), undefined);
  const files = listing.files;
  assert.deepEqual(files, before.flatMap((folder) => folder.files));
  assert.deepEqual(answers(), before);
  const of = (folder: string) => before[listing.folders.indexOf(folder)];
  assert.deepEqual([DIR, other, `${AGENT}/sessions/--work-empty--`].map((folder) => of(folder).count), [2, 3, 0]);
  assert.deepEqual(of(other).names, { stem: `${other}/`, names: ["e.jsonl", "d.jsonl", "c.jsonl"] });
  assert.deepEqual(before.at(-1), { files: [], names: { stem: `${AGENT}/sessions/--not-there--/`, names: [] }, count: 0 });
  // The files are made once: the same array each time.
  assert.equal(listing.files, files);
  assert.equal(listing.madeFiles(), files);
});
