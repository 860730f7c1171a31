/**
 * A refresh that keeps nothing (`keep: false`) gives `onRecords` what a full refresh has, loading
 * stored records a slice of files at a time; and a refresh cut short (a killed `index`) has
 * saved what it read, so the next one reads only the rest and ends with the same catalog.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { CatalogRecord, CatalogStore, RecordStamp, SectionChanges, SectionKey } from "../../src/catalog/store.ts";
import type { DigestKind } from "../../src/core/digest/digester.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { filesDigest } from "../../src/core/digest/files-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { CountingFileSystem, sessionText, sqliteBinding, tickingFs, utf8 } from "./_helpers.ts";

const DIR = "/sessions/--work-p--";
const KINDS = [listingDigest, usageDigest, filesDigest] as DigestKind<unknown, unknown>[];
const pathOf = (dir: string, i: number) => `${dir}/2025-06-01T10-00-00-000Z_s${String(i).padStart(3, "0")}.jsonl`;

/**
 * A file store that also lists stamps and loads records by path (as SQLite does), and counts
 * how it is asked: whole sections loaded, and the most paths asked for at once.
 */
class PathsStore implements CatalogStore {
  readonly kind = "paths";
  readonly supportsDocs = false;
  readonly location: string;
  wholeLoads = 0;
  largestSlice = 0;
  #inner: FileCatalogStore;

  constructor(fs: FileSystem, dir: string) {
    this.#inner = new FileCatalogStore(fs, dir);
    this.location = dir;
  }
  load(section: SectionKey): Promise<Map<string, CatalogRecord>> {
    this.wholeLoads++;
    return this.#inner.load(section);
  }
  async loadStamps(section: SectionKey): Promise<Map<string, RecordStamp>> {
    const all = await this.#inner.load(section);
    return new Map([...all].map(([path, r]) => [path, { size: r.size, mtimeMs: r.mtimeMs }]));
  }
  async loadPaths(section: SectionKey, paths: readonly string[]): Promise<Map<string, CatalogRecord>> {
    this.largestSlice = Math.max(this.largestSlice, paths.length);
    const all = await this.#inner.load(section);
    return new Map(paths.flatMap((path) => (all.has(path) ? [[path, all.get(path)!] as const] : [])));
  }
  save = (section: SectionKey, changes: SectionChanges) => this.#inner.save(section, changes);
  clear = () => this.#inner.clear();
  describe = () => this.#inner.describe();
  close(): void {}
}

/** Every section's records by path, as `onRecords` hands them over. */
function collector() {
  const seen = new Map<string, readonly CatalogRecord[]>();
  return { seen, onRecords: (path: string, records: readonly CatalogRecord[]) => void seen.set(path, records) };
}

test("refresh() with keep: false hands onRecords what a full refresh has, never loading a section whole", async () => {
  const fs = tickingFs();
  await fs.mkdir(DIR, { recursive: true });
  const files = Array.from({ length: 230 }, (_, i) => pathOf(DIR, i));
  for (const [i, path] of files.entries()) await fs.writeAtomic(path, utf8(sessionText(`s${i}`, 2 + (i % 3))));
  const walked = new PathsStore(fs, "/cache-walk");
  const full = new FileCatalogStore(fs, "/cache-full");
  const both = async (paths: string[]) => {
    const got = collector();
    const walk = await new Catalog(fs, { store: walked }).refresh(KINDS, paths, { listedDirs: [DIR], keep: false, onRecords: got.onRecords });
    const view = await new Catalog(fs, { store: full }).refresh(KINDS, paths, { listedDirs: [DIR] });
    assert.deepEqual(walk.counts, view.counts);
    assert.equal(walk.records(listingDigest).size, 0, "a walk keeps no view");
    assert.deepEqual([...got.seen.keys()].sort(), [...view.records(listingDigest).keys()].sort());
    for (const [path, records] of got.seen) assert.deepEqual(records, KINDS.map((kind) => view.records(kind).get(path)), path);
    for (const kind of KINDS) assert.deepEqual(await new FileCatalogStore(fs, "/cache-walk").load(kind), await full.load(kind), kind.name);
    return walk.counts;
  };

  assert.equal((await both(files)).read, 230);
  assert.equal((await both(files)).unchanged, 230);
  // An append, a rewrite, a deleted file and a new one.
  await fs.append(files[3], utf8(sessionText("s3", 2, { from: 5 }).split("\n").slice(0, 2).join("\n") + "\n"));
  await fs.writeAtomic(files[7], utf8(sessionText("other", 4)));
  await fs.remove(files[9]);
  const added = pathOf(DIR, 999);
  await fs.writeAtomic(added, utf8(sessionText("new", 2)));
  const counts = await both([...files.filter((p) => p !== files[9]), added]);
  assert.deepEqual([counts.appended, counts.read, counts.removed, counts.unchanged], [1, 2, 1, 227]);
  assert.equal(walked.wholeLoads, 0);
  assert.ok(walked.largestSlice <= 100, `at most 100 paths at once, not ${walked.largestSlice}`);
});

/** A `PathsStore` that also gives the stamps of folders and streams every stamp (as SQLite does), and tells which it was asked. */
class FolderStampsStore extends PathsStore {
  foldersAsked: string[][] = [];
  streamed = 0;
  async loadStampsIn(section: SectionKey, folders: readonly string[]): Promise<Map<string, RecordStamp>> {
    this.foldersAsked.push([...folders]);
    const all = await this.loadStamps(section);
    return new Map([...all].filter(([path]) => folders.some((folder) => path.startsWith(`${folder}/`))));
  }
  async eachStamp(section: SectionKey, visit: (path: string, size: number, mtimeMs: number, headerId: string | null) => void): Promise<void> {
    this.streamed++;
    for (const [path, stamp] of await this.loadStamps(section)) visit(path, stamp.size, stamp.mtimeMs, null);
  }
}

test("refresh() with keep: false of a few files in the folders listed compares those folders' stamps alone, and still finds every change", async () => {
  const fs = tickingFs();
  const other = "/sessions/--work-q--";
  const here = Array.from({ length: 20 }, (_, i) => pathOf(DIR, i));
  const there = Array.from({ length: 20 }, (_, i) => pathOf(other, i));
  for (const dir of [DIR, other]) await fs.mkdir(dir, { recursive: true });
  for (const [i, path] of [...here, ...there].entries()) await fs.writeAtomic(path, utf8(sessionText(`s${i}`, 2)));
  const store = new FolderStampsStore(fs, "/cache");
  const walk = (paths: string[], dirs: string[]) => new Catalog(fs, { store }).refresh(KINDS, paths, { listedDirs: dirs, keep: false, onRecords() {} });
  assert.equal((await walk([...here, ...there], [DIR, other])).counts.read, 40);
  assert.equal(store.streamed, 0);
  // A file gone from the folder (its record too), one appended to, one new: the folder's stamps tell them.
  await fs.remove(here[4]);
  await fs.append(here[5], utf8(sessionText("s5", 2, { from: 5 }).split("\n").slice(0, 2).join("\n") + "\n"));
  const added = pathOf(DIR, 999);
  await fs.writeAtomic(added, utf8(sessionText("new", 2)));
  store.foldersAsked = [];
  const { counts } = await walk([...here.filter((path) => path !== here[4]), added], [DIR]);
  assert.deepEqual([counts.removed, counts.appended, counts.read, counts.unchanged], [1, 1, 1, 18]);
  assert.deepEqual(store.foldersAsked, KINDS.map(() => [DIR]), "each section's stamps of the folder listed, and no other");
  assert.equal(store.streamed, 0, "no stamp of every file gone through");
  const kept = [...(await store.load(listingDigest)).keys()];
  assert.ok(!kept.includes(here[4]) && kept.includes(added) && there.every((path) => kept.includes(path)), "the other folder's records are left alone");
  // A file outside the folders listed: every stamp is gone through, as before.
  assert.equal((await walk([here[0], there[0]], [DIR])).counts.unchanged, 2);
  assert.equal(store.streamed, KINDS.length);
  // No folder listed (the files that name a path, of any folder): their folders' stamps alone.
  store.foldersAsked = [];
  await fs.append(there[3], utf8(sessionText("s23", 2, { from: 5 }).split("\n").slice(0, 2).join("\n") + "\n"));
  const some = await new Catalog(fs, { store }).refresh(KINDS, [here[1], there[3]], { keep: false, onRecords() {} });
  // The append is told from the stored stamp (without one, the file would be read whole).
  assert.deepEqual([some.counts.files, some.counts.appended, some.counts.removed], [2, 1, 0], JSON.stringify(some.counts));
  assert.deepEqual(store.foldersAsked, KINDS.map(() => [DIR, other]));
  assert.equal(store.streamed, KINDS.length, "no stamp of every file gone through");
});

/**
 * A file system whose session reads stop for good (as a killed process does) once `files`
 * files have been read; each file read moves `clock` on by `stepMs`.
 */
class StoppingFileSystem extends CountingFileSystem {
  #left: number;
  #clock: { now: number; stepMs: number };
  readonly stopped: Promise<void>;
  #stop!: () => void;

  constructor(inner: FileSystem, files: number, clock: { now: number; stepMs: number }) {
    super(inner);
    this.#left = files;
    this.#clock = clock;
    this.stopped = new Promise((resolve) => (this.#stop = resolve));
  }

  override async *read(path: string, range?: Parameters<FileSystem["read"]>[1]): AsyncGenerator<Uint8Array> {
    if (!this.byPath.has(path)) {
      if (this.#left-- <= 0) {
        this.#stop();
        await new Promise(() => {});
      }
      this.#clock.now += this.#clock.stepMs;
    }
    yield* super.read(path, range);
  }
}

/** The records of every section of `store`, and its full-text document count. */
async function contents(store: CatalogStore, kinds: readonly DigestKind<unknown, unknown>[]) {
  const sections = [];
  for (const kind of kinds) sections.push([...(await store.load(kind))].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { sections, docs: (await store.describe()).docs };
}

/** A refresh stopped after 13 of 30 files; then a new catalog over the same store, as a second run would be. */
async function resumeCase(fs: FileSystem, dir: string, openStore: (name: string) => Promise<CatalogStore>, kinds: readonly DigestKind<unknown, unknown>[]) {
  const files = Array.from({ length: 30 }, (_, i) => pathOf(dir, i));
  for (const [i, path] of files.entries()) await fs.writeAtomic(path, utf8(sessionText(`s${i}`, 3)));
  const whole = await openStore("whole");
  await new Catalog(fs, { store: whole }).refresh(kinds, files, { listedDirs: [dir] });

  const clock = { now: 0, stepMs: 400 };
  const stopping = new StoppingFileSystem(fs, 13, clock);
  const first = await openStore("cut");
  const cut = new Catalog(stopping, { store: first, clock: () => clock.now });
  void cut.refresh(kinds, files, { listedDirs: [dir], keep: false, onRecords() {} });
  await stopping.stopped;
  const kept = new Set((await first.load(listingDigest)).keys());
  assert.ok(kept.size >= 10 && kept.size <= 13, `the cut refresh saved as it read (${kept.size} of 13 files)`);

  const counting = new CountingFileSystem(fs);
  const store = await openStore("cut");
  const again = await new Catalog(counting, { store }).refresh(kinds, files, { listedDirs: [dir], keep: false, onRecords() {} });
  assert.deepEqual([...counting.byPath.keys()].sort(), files.filter((path) => !kept.has(path)), "only the files not saved are read");
  assert.equal(again.counts.unchanged, kept.size);
  assert.deepEqual(await contents(store, kinds), await contents(whole, kinds));
  for (const s of [whole, first, store]) s.close();
}

test("refresh() cut short (a killed index) has saved what it read: the next reads only the rest and ends with the same catalog (file store)", async () => {
  const fs = tickingFs();
  await fs.mkdir(DIR, { recursive: true });
  await resumeCase(fs, DIR, (name) => Promise.resolve(new FileCatalogStore(fs, `/cache-${name}`)), KINDS);
});

const binding = await sqliteBinding();
test(`refresh() cut short resumes without reading a saved file again (SQLite${"driver" in binding ? `, ${binding.driver}` : ""}, full-text index)`, { skip: "skip" in binding ? binding.skip : undefined }, async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-session-walk-"));
  try {
    const fs = detectFileSystem();
    const dir = join(root, "sessions", "--work-p--");
    await fs.mkdir(dir, { recursive: true });
    await resumeCase(fs, dir, (name) => openSqliteStore(join(root, `${name}.sqlite`)), [...KINDS, docsDigest] as DigestKind<unknown, unknown>[]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
