/**
 * The memory-bounded refresh (`keep: false`): which files changed is decided from the stored
 * stamps alone, and records are loaded a slice of files at a time, handed on and dropped.
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { dirName } from "../core/storage/paths.ts";
import { inDirs } from "./in-dirs.ts";
import { eachStamp, fileIndex, PassCollector, type StampVisitor } from "./stamps.ts";
import type { RefreshCounts, RefreshOptions } from "./refresh-options.ts";
import { PACED_LOAD, pacer, type RefreshRun, STAT_CONCURRENCY } from "./refresh-run.ts";
import type { CatalogRecord, CatalogStore } from "./store.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

/** What a walk needs of its catalog. */
export interface WalkHost {
  fs: FileSystem;
  /** A store that lists stamps and loads records by path. */
  store: CatalogStore & Required<Pick<CatalogStore, "loadStamps" | "loadPaths">>;
  concurrency: number;
  warn: (key: string, message: string) => void;
  startRun: (kinds: readonly AnyKind[], options: RefreshOptions) => RefreshRun;
  /** Saves the folders listed and the full check (every file was stat'ed). */
  saveListing: () => Promise<void>;
}

/**
 * The files whose stored state mentions every text of `options.mentioning`; undefined (every file, as without
 * it) where the store cannot tell or they are over half of `files` (the set would cost more than it saves).
 */
async function mentioning(host: WalkHost, kind: AnyKind | undefined, files: number, options: RefreshOptions): Promise<Set<string> | undefined> {
  if (options.mentioning === undefined || !options.onRecords || !kind || !host.store.filesMentioning) return undefined;
  try {
    return await host.store.filesMentioning(kind, options.mentioning, files / 2);
  } catch {
    return undefined;
  }
}

/** Files up to which a walk within folders compares the stamps of those folders alone. */
const FEW_FILES = 4096;

/**
 * How a walk goes through the stored stamps of a section: every one, row by row (a few numbers
 * held per file), or, for a few files, those of some folders alone: the folders listed, where
 * they hold every file, or with none listed, the files' own (a stamp of a file not walked, and
 * in no folder listed, changes nothing). A project of 70 sessions among 25,000 went through 50,000
 * stamps of two sections: 140 ms; the 25 sessions of 25,000 that name a file, 200 ms.
 */
function stampsOf(store: WalkHost["store"], paths: readonly string[], dirs: readonly string[] | undefined): (kind: AnyKind, visit: StampVisitor) => Promise<void> {
  const every = (kind: AnyKind, visit: StampVisitor) => eachStamp(store, kind, visit);
  if (!store.loadStampsIn || paths.length > FEW_FILES) return every;
  // A file gone from a folder listed is told by its stamp there: every stamp under them is gone through.
  const listing = dirs !== undefined && dirs.length > 0;
  if (listing && !paths.every(inDirs(dirs))) return every;
  const folders = listing ? dirs : [...new Set(paths.map(dirName))];
  return async (kind, visit) => {
    for (const [path, stamp] of await store.loadStampsIn!(kind, folders)) visit(path, stamp.size, stamp.mtimeMs, null);
  };
}

/** The stored records of `paths`, by kind, or none (every file is then read again) when the store fails. */
async function slice(host: WalkHost, kinds: readonly AnyKind[], paths: readonly string[]): Promise<Map<string, CatalogRecord>[]> {
  try {
    const found = [];
    for (const kind of kinds) found.push(await host.store.loadPaths(kind, paths));
    return found;
  } catch (error) {
    host.warn("load", `The catalog at ${host.store.location} cannot be read (${(error as Error).message}); reading the session files directly`);
    return kinds.map(() => new Map());
  }
}

/**
 * `refresh` with `keep: false`: records are loaded for unchanged files only when `onRecords`
 * takes them. Memory holds a path index entry (until the stamps are gone through) and three
 * typed-array slots (size, mtime, state) per file. Returns the counts.
 */
export async function walkRefresh(host: WalkHost, kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions): Promise<RefreshCounts> {
  // One index entry and a few numbers per file, in typed arrays: what a walk holds per session.
  const index = fileIndex(files);
  const paths = index.size === files.length ? files : [...index.keys()];
  const size = new Float64Array(paths.length);
  const mtime = new Float64Array(paths.length);
  /** 0: not a file (gone, unreadable), 1: a file to read, 2: a file whose every section is current. */
  const state = new Uint8Array(paths.length);
  const collector = new PassCollector();
  await mapConcurrent(paths, STAT_CONCURRENCY, async (path, k) => {
    collector.item();
    const stat = await host.fs.stat(path).catch(() => null);
    if (!stat?.isFile) return;
    size[k] = stat.size;
    mtime[k] = stat.mtimeMs;
    state[k] = 2;
  });
  collector.end();
  const statOf = (k: number): FileStat => ({ size: size[k], mtimeMs: mtime[k], isFile: true, isDirectory: false, mode: 0 });
  const pace = pacer(options);
  const run = host.startRun(kinds, options);
  const { counts } = run;
  const listed = inDirs(options.listedDirs);
  // Same size and mtime in every section: unchanged. Stamps of files gone: removed. One
  // section's stamps at a time, gone through row by row (stamps.ts).
  const stamped = new Uint8Array(paths.length);
  const stamps = stampsOf(host.store, paths, options.listedDirs);
  for (const [i, kind] of kinds.entries()) {
    stamped.fill(0);
    const gone: string[] = [];
    try {
      await stamps(kind, (path, bytes, mtimeMs) => {
        const k = index.get(path);
        if (k === undefined ? listed(path) : state[k] === 0) gone.push(path);
        else if (k !== undefined) {
          stamped[k] = 1;
          if (bytes !== size[k] || mtimeMs !== mtime[k]) state[k] = 1;
        }
      });
    } catch (error) {
      host.warn("load", `The catalog at ${host.store.location} cannot be read (${(error as Error).message}); reading the session files directly`);
      stamped.fill(0);
      gone.length = 0;
    }
    for (const path of gone) run.remove(i, path);
    // A file without a record in this section is read.
    for (let k = 0; k < paths.length; k++) if (state[k] === 2 && !stamped[k]) state[k] = 1;
  }
  // Files go by their places from here: the index of paths (3.4 MB at 25,000 sessions) is let
  // go before the records are loaded, not kept to the end of the walk with what it hands on.
  index.clear();
  const changed: number[] = [];
  state.forEach((s, k) => s === 1 && changed.push(k));
  let done = paths.length - changed.length;
  options.onProgress?.(done, paths.length);
  // Unchanged files: their records only for `onRecords`; one whose record no longer loads is read again.
  let unchanged = 0;
  // The records handed on are dropped by the caller: collected as they go, and in full after.
  const handed = new PassCollector();
  const mentioned = await mentioning(host, kinds[0], paths.length, options);
  for (let at = 0; at < paths.length; at += PACED_LOAD) {
    const some: number[] = [];
    for (let k = at; k < Math.min(at + PACED_LOAD, paths.length); k++) if (state[k] === 2) some.push(k);
    unchanged += some.length;
    if (mentioned) {
      const kept = some.filter((k) => mentioned.has(paths[k]));
      some.length = 0;
      some.push(...kept);
    }
    if (!options.onRecords || some.length === 0) continue;
    await pace?.();
    const records = await slice(host, kinds, some.map((k) => paths[k]));
    for (const k of some) {
      const found = records.map((r) => r.get(paths[k]));
      if (found.some((r) => r === undefined)) {
        changed.push(k);
        unchanged--;
        options.onProgress?.(--done, paths.length);
        continue;
      }
      handed.item();
      options.onRecords(paths[k], found as CatalogRecord[]);
    }
  }
  handed.end();
  counts.files += unchanged;
  counts.unchanged += unchanged;
  for (let at = 0; at < changed.length; at += PACED_LOAD) {
    const some = changed.slice(at, at + PACED_LOAD);
    const old = await slice(host, kinds, some.map((k) => paths[k]));
    await mapConcurrent(some, host.concurrency, async (k) => {
      await pace?.();
      await run.read(paths[k], statOf(k), old.map((r) => r.get(paths[k])));
      options.onProgress?.(++done, paths.length);
    });
  }
  await run.end();
  // Every file was stat'ed: a full check, whatever the listing allowed.
  await host.saveListing();
  return counts;
}
