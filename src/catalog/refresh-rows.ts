/**
 * The refresh of a listing through its rows (list-row.ts): which files changed is decided from
 * the rows' stamps (or, by a quick check with coverage, from the records of the folders that
 * changed and the recent ones: covered-check.ts), a quick check stats no file of an unchanged
 * folder, and only the records of
 * changed files are loaded (a slice at a time) to be brought up to date. Nothing per session is
 * held but the stamps; the listing is then read from the rows, in order.
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { ListingState } from "../core/info/session-info.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { ChangedFiles } from "./changed-files.ts";
import type { CoveredWork } from "./covered-check.ts";
import type { FolderListing } from "./folder-check.ts";
import { listRow, type ListRowStore } from "./list-row.ts";
import type { RefreshCounts, RefreshOptions } from "./refresh-options.ts";
import { PACED_LOAD, type RefreshRun, STAT_CONCURRENCY } from "./refresh-run.ts";
import type { CatalogRecord, CatalogStore, RecordStamp } from "./store.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

/** What a refresh through rows needs of its catalog. */
export interface RowsHost {
  fs: FileSystem;
  store: CatalogStore & { listRows: ListRowStore; loadPaths: NonNullable<CatalogStore["loadPaths"]> };
  concurrency: number;
  startRun: (kinds: readonly AnyKind[], options: RefreshOptions) => RefreshRun;
  /** Saves the folders listed, and the full check when `full` (every file was stat'ed). */
  saveListing: (full: boolean) => Promise<void>;
}

/** What a refresh through rows did, and whether a row under its directory is odd (`ListRow.odd`) or may have a bad header. */
export interface RowsRefresh {
  counts: RefreshCounts;
  odd: boolean;
  bad: boolean;
}

/** The files of `listing` that changed and the rows of files gone, from the rows' stamps under its dir. */
async function compareStamps(
  host: RowsHost,
  found: { stamps: Map<string, RecordStamp>; odd: boolean; bad: boolean },
  listing: FolderListing,
  trust: ((path: string, stamp: RecordStamp) => boolean) | undefined,
): Promise<{ odd: boolean; bad: boolean; unchanged: number; gone: string[]; changed: ChangedFiles }> {
  const { stamps, odd, bad } = found;
  const toStat: [string, RecordStamp | undefined][] = [];
  let unchanged = 0;
  let matched = 0;
  for (const path of listing.files) {
    const stamp = stamps.get(path);
    if (stamp) matched++;
    if (stamp && trust?.(path, stamp)) unchanged++;
    else toStat.push([path, stamp]);
  }
  // Rows of files gone: those of no listed file (none when every row matched one).
  const listed = matched === stamps.size ? undefined : new Set(listing.files);
  const gone = listed ? [...stamps.keys()].filter((path) => !listed.has(path)) : [];
  stamps.clear();
  const changed = new ChangedFiles();
  await mapConcurrent(toStat, STAT_CONCURRENCY, async ([path, stamp]) => {
    const stat = await host.fs.stat(path).catch(() => null);
    if (!stat?.isFile) {
      if (stamp) gone.push(path);
    } else if (!stamp || stamp.size !== stat.size || stamp.mtimeMs !== stat.mtimeMs) changed.push(path, "", stat);
    else unchanged++;
  });
  return { odd, bad, unchanged, gone, changed };
}

/**
 * Brings the listing rows of `kind` (the listing section) up to date for the files of `listing`,
 * found under `dir`: rows of files gone from under `dir` are dropped. `trust` is the quick
 * check's test (files it accepts are not stat'ed), undefined for a full check.
 */
export async function refreshRows(
  host: RowsHost,
  kind: AnyKind,
  listing: FolderListing,
  dir: string,
  trust: ((path: string, stamp: RecordStamp) => boolean) | undefined,
  options: RefreshOptions = {},
  covered?: CoveredWork,
): Promise<RowsRefresh> {
  const rows = host.store.listRows;
  rows.sync(kind);
  let odd: boolean, bad: boolean, unchanged: number, gone: string[], changed: ChangedFiles;
  if (covered && rows.flags) {
    // What changed was found from the records (covered-check.ts): no row's stamp is needed.
    ({ odd, bad } = rows.flags(kind.version, dir));
    ({ unchanged, gone, changed } = covered);
  } else {
    ({ odd, bad, unchanged, gone, changed } = await compareStamps(host, rows.stamps(kind.version, dir), listing, trust));
  }
  const onRecords = (path: string, records: readonly CatalogRecord[]) => {
    const row = listRow(records[0] as CatalogRecord<ListingState>);
    if (row.odd) odd = true;
    if (row.badHeader !== null) bad = true;
    options.onRecords?.(path, records);
  };
  const run = host.startRun([kind], { ...options, onRecords });
  const { counts } = run;
  counts.files += unchanged;
  counts.unchanged += unchanged;
  const total = unchanged + changed.length;
  let done = unchanged;
  options.onProgress?.(done, total);
  // In the paths' order: the rows are then stored in their keys' order (changed-files.ts).
  const order = changed.inPathOrder();
  for (let at = 0; at < order.length; at += PACED_LOAD) {
    // A slice's paths and stats are made when it is read.
    const some: [string, FileStat][] = [];
    const recorded: string[] = [];
    for (const i of order.slice(at, at + PACED_LOAD)) {
      some.push([changed.path(i), changed.stat(i)]);
      if (changed.recorded(i)) recorded.push(some[some.length - 1][0]);
    }
    // Only the records there are (none in a cold build: a lookup per file for nothing).
    const old = recorded.length > 0 ? await host.store.loadPaths(kind, recorded) : new Map<string, CatalogRecord>();
    await mapConcurrent(some, host.concurrency, async ([path, stat]) => {
      await run.read(path, stat, [old.get(path)]);
      options.onProgress?.(++done, total);
    });
  }
  for (const path of gone) run.remove(0, path);
  await run.end();
  await host.saveListing(trust === undefined);
  return { counts, odd, bad };
}
