/**
 * A refresh that loads the stored records of its sections (catalog.ts keeps them for the next
 * refresh, unless `keep: false`): stat every file (or take it on trust, the quick check), read
 * those whose size or mtime changed, drop the records of files gone, and save what changed.
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { inDirs } from "./in-dirs.ts";
import { quickStats } from "./quick-stats.ts";
import { CatalogView, type RefreshOptions } from "./refresh-options.ts";
import { pacer, type RefreshRun, STAT_CONCURRENCY } from "./refresh-run.ts";
import type { CatalogRecord, RecordStamp } from "./store.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

/** What a loaded refresh needs of the catalog. */
export interface LoadedRefreshHost {
  readonly fs: FileSystem;
  readonly concurrency: number;
  /** The quick check's test, or undefined for a full check (every file stat'ed). */
  readonly trust: ((path: string, stamp: RecordStamp) => boolean) | undefined;
  /** Every stored record of `kind` (held by the catalog). */
  records(kind: AnyKind): Promise<Map<string, CatalogRecord>>;
  /** The stored records of `paths` only (a partial refresh). */
  recordsOf(kind: AnyKind, paths: readonly string[], pace?: () => Promise<void>): Promise<Map<string, CatalogRecord>>;
  /** The paths stored for `kind` (`loaded`: those loaded so far). */
  storedPaths(kind: AnyKind, loaded: Map<string, CatalogRecord>): Promise<Iterable<string>>;
  startRun(kinds: readonly AnyKind[], options: RefreshOptions): RefreshRun;
  /** Saves the folders listed and, for a full check, the check. */
  saveListing(): Promise<void>;
}

/** Brings the records of `kinds` up to date for `files`; their fresh records by section, and the counts. */
export async function refreshLoaded(host: LoadedRefreshHost, kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions): Promise<CatalogView> {
  const { trust } = host;
  const keep = options.keep !== false;
  const paths = [...new Set(files)];
  // Stats run in the background while the stored records load (after, for the quick check: it needs the records).
  const statOf = (path: string) => host.fs.stat(path).catch(() => null);
  const statting = trust ? undefined : mapConcurrent(paths, STAT_CONCURRENCY, statOf);
  const pace = pacer(options);
  const stored = await Promise.all(kinds.map((kind) => options.partial ? host.recordsOf(kind, paths, pace) : host.records(kind)));
  const stats = statting ? await statting : await quickStats(paths, stored, trust!, statOf);
  const run = host.startRun(kinds, options);
  const { counts } = run;
  const fresh = kinds.map(() => new Map<string, CatalogRecord>());
  const seen = new Set<string>();
  // The common case first, without any await: same size and mtime as last time.
  const changed: [string, FileStat][] = [];
  for (const [i, path] of paths.entries()) {
    const stat = stats[i];
    if (!stat?.isFile) continue;
    seen.add(path);
    const records = stored.map((r) => r.get(path));
    if (records.some((r) => r === undefined || r.size !== stat.size || r.mtimeMs !== stat.mtimeMs)) {
      changed.push([path, stat]);
      continue;
    }
    if (keep) records.forEach((record, k) => fresh[k].set(path, record!));
    options.onRecords?.(path, records as CatalogRecord[]);
    counts.files++;
    counts.unchanged++;
  }
  let done = paths.length - changed.length;
  options.onProgress?.(done, paths.length);

  await mapConcurrent(changed, host.concurrency, async ([path, stat]) => {
    await pace?.();
    const records = await run.read(path, stat, stored.map((r) => r.get(path)));
    options.onProgress?.(++done, paths.length);
    // Kept for a later refresh by this catalog, unless nothing is to be kept (`keep: false`).
    if (keep) {
      records?.forEach((record, i) => {
        stored[i].set(path, record);
        fresh[i].set(path, record);
      });
    }
  });

  const listed = inDirs(options.listedDirs);
  const asked = new Set(paths);
  for (const [i, records] of stored.entries()) {
    // A partial load holds only the files asked for: which others are stored, the stamps tell.
    const storedPaths = options.partial && options.listedDirs?.length ? await host.storedPaths(kinds[i], records) : [...records.keys()];
    for (const path of storedPaths) {
      if (seen.has(path) || !(asked.has(path) || listed(path))) continue;
      records.delete(path);
      run.remove(i, path);
    }
  }
  await run.end();
  await host.saveListing();
  return new CatalogView(new Map(kinds.map((kind, i) => [kind.name, fresh[i]])), counts);
}
