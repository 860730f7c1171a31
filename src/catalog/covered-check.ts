/**
 * The quick check without stamps: where the store keeps a section's coverage (`Coverage`), a
 * folder whose mtime is the one it had when its records were last found to be exactly its
 * session files needs no stamp of its own loaded and no name of it split. What is left to prove
 * is what the quick check proves by stats (folder-check.ts): the records modified in the last
 * day (`HOT_MS`, found by the store's index of mtimes) against their files, and the folders
 * that changed, or are not covered, file by file. The cost is one stat per folder and per
 * recent file, not one stamp per file: a warm search of 25,000 sessions in 300 folders loads
 * 300 mtimes and a handful of stamps.
 *
 * The guarantee is the quick check's, no more and no less: new, removed and renamed sessions
 * (their folder's mtime changes) and appends to sessions active in the last day are seen; an
 * append to an older session that leaves its folder alone waits for the next full check.
 * @module
 */
import { dirName } from "../core/storage/paths.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { stampsDigest } from "./folder-digest.ts";
import { type FolderListing, HOT_MS } from "./folder-check.ts";
import { inDirs } from "./in-dirs.ts";
import { ChangedFiles } from "./changed-files.ts";
import { statEachOrNull, statInOrNull } from "./stat-now.ts";
import type { CatalogStore, Coverage, SectionKey } from "./store.ts";

/** A store that keeps coverage, recent stamps and stamps by folder. */
export type CoverageStore = CatalogStore & Required<Pick<CatalogStore, "loadCoverage" | "saveCoverage" | "loadRecentStamps" | "loadStampsIn" | "countFilesIn">>;

/** True when `store` can answer the quick check without stamps. */
export function keepsCoverage(store: CatalogStore | null): store is CoverageStore {
  return Boolean(store?.loadCoverage && store.saveCoverage && store.loadRecentStamps && store.loadStampsIn && store.countFilesIn);
}

/** True when `listedDirs` hold the listing's scope: records under it of no listed file are to be dropped. */
export function coversScope(listing: FolderListing, listedDirs: readonly string[] = []): boolean {
  return inDirs(listedDirs)(listing.dir + "/-");
}

/** The folders of `coverage` that belong to `listing`'s scope (its project folders, or its dir). */
function inScope(listing: FolderListing): (folder: string) => boolean {
  return listing.nested ? (folder) => dirName(folder) === listing.dir : (folder) => folder === listing.dir;
}

/**
 * A section's coverage to save: folders to put (with their mtimes) and folders to drop; `stamps`,
 * the fingerprint of the files of each folder put whose records are known to be current for
 * them (`stampsDigest`; a folder put without one keeps none).
 */
export interface CoverageChange {
  put: Map<string, number>;
  drop: string[];
  stamps: Map<string, string>;
}

/**
 * The coverage that holds once every file of `listing` is found to have a current record of the
 * section and no other record lies under its scope: every folder whose mtime is known, replacing
 * what `coverage` had; covered folders of the scope no longer listed (in `was`, by default
 * `coverage`) are dropped.
 */
export function fullCoverage(listing: FolderListing, coverage: Coverage, was: Coverage = coverage, digests: ReadonlyMap<string, string> = new Map()): CoverageChange {
  const put = new Map<string, number>();
  const stamps = new Map<string, string>();
  for (const folder of listing.folders) {
    const mtime = listing.mtimes.get(folder);
    if (mtime === undefined) continue;
    const digest = digests.get(folder);
    if (coverage.folders.get(folder) !== mtime || (digest !== undefined && coverage.stamps?.get(folder) !== digest)) put.set(folder, mtime);
    if (digest !== undefined) stamps.set(folder, digest);
  }
  const listed = new Set(listing.folders);
  const belongs = inScope(listing);
  const drop = [...was.folders.keys()].filter((folder) => belongs(folder) && !listed.has(folder));
  return { put, drop, stamps };
}

/** Pushes onto `gone` the paths of `stamps` not in `listed` (keys and `listed` both past `stem`: the paths are `stem` and a key). */
function goneOf(stamps: ReadonlyMap<string, unknown>, listed: ReadonlySet<string>, gone: string[], stem = ""): void {
  for (const key of stamps.keys()) if (!listed.has(key)) gone.push(stem + key);
}

/** Whether `path` lies under one of `folders` (at any depth). */
function underAny(folders: ReadonlySet<string>, path: string): boolean {
  for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) if (folders.has(path.slice(0, at))) return true;
  return false;
}

/**
 * Onto `work.digests`: the fingerprints `coverage` keeps of the `covered` folders (taken whole,
 * their older files not stat'ed) where no file of the folder is to be read or dropped: what was
 * true of them still is. One to be read or dropped has its record written, which the store
 * takes as the end of its fingerprint.
 */
function keptDigests(work: CoveredWork, covered: ReadonlySet<string>, coverage: Coverage): void {
  const kept = coverage.stamps;
  if (!kept || covered.size === 0) return;
  const touched = new Set(work.gone.map(dirName));
  for (let i = 0; i < work.changed.length; i++) touched.add(dirName(work.changed.path(i)));
  for (const folder of covered) {
    const digest = kept.get(folder);
    if (digest !== undefined && !touched.has(folder)) work.digests.set(folder, digest);
  }
}

/** What a quick check by coverage found to do: files to read (with their stats), records of files gone. */
export interface CoveredWork {
  changed: ChangedFiles;
  gone: string[];
  /** How many files were found current (counted on first use). */
  unchanged: number;
  /**
   * The fingerprint of each folder's files (`stampsDigest`) that holds once `changed` are read
   * and `gone` dropped: a folder of none of them whose files were all stat'ed and found current,
   * or one taken whole with the fingerprint its coverage kept (for `fullCoverage`).
   */
  digests: Map<string, string>;
}

/**
 * What it takes to make the records of `section` those of `listing`'s session files: by the
 * quick check with `quick` (allowed: see `quickTrust`), else by a full one (every file stat'ed).
 * In a quick check, covered folders of unchanged mtime are taken whole, apart from their recent
 * records; the other folders are compared file by file, their older files taken on trust where
 * the folder did not change, and their records not of a listed file are of files gone. Where no
 * folder is taken whole, the stamps compared are all those under the scope's dir, so that no
 * record outside the folders (one directly in a nested scope's dir) goes unseen: coverage starts
 * from such a check, and holds while no record is added or removed (the store drops it then).
 * With `stopAfter`, stops once that many changes are found (and gives those).
 */
export async function coveredWork(
  fs: FileSystem,
  store: CoverageStore,
  section: SectionKey,
  listing: FolderListing,
  coverage: Coverage,
  options: { quick: boolean; now: number; stopAfter?: number },
): Promise<CoveredWork> {
  const work: CoveredWork = { changed: new ChangedFiles(), gone: [], unchanged: 0, digests: new Map() };
  const done = () => options.stopAfter !== undefined && work.changed.length + work.gone.length >= options.stopAfter;
  const belongs = inScope(listing);
  const started = [...coverage.folders.keys()].some(belongs);
  const hotSince = options.now - HOT_MS;
  const covered = new Set<string>();
  const uncovered: string[] = [];
  for (const folder of listing.folders) {
    const mtime = listing.mtimes.get(folder);
    if (options.quick && started && listing.unchanged.has(folder) && mtime !== undefined && coverage.folders.get(folder) === mtime) covered.add(folder);
    else uncovered.push(folder);
  }
  // Covered folders no longer there: their records (if they had files) are of files gone.
  const listed = new Set(listing.folders);
  const vanished = [...coverage.folders.keys()].filter((folder) => belongs(folder) && !listed.has(folder));
  if (uncovered.length > 0 || vanished.length > 0) {
    // A full check stats every file: at once where the file system can, no promise each, and
    // as a folder's stem and a name (no path made where the file system stats them so).
    const statIn = statInOrNull(fs);
    const statEach = statEachOrNull(fs);
    // The stamps a folder at a time (a full check of 25,000 sessions held all of them at once),
    // by name where the store gives them so: no path per file made, kept or hashed.
    let loaded = 0;
    for (const folder of uncovered) {
      // A changed file is kept as its folder's stem and its name: a cold listing finds every file changed.
      const { stem, names } = listing.namesIn(folder);
      const byName = store.loadNamesIn !== undefined && stem === `${folder}/`;
      const trusted = options.quick && listing.unchanged.has(folder);
      // A folder whose every file is stat'ed (not taken on trust): first against the fingerprint
      // its coverage keeps, which when equal says its records are current for exactly these
      // files, no stamp loaded (a full check of 25,000 sessions loaded 25,000 for 10 changed).
      let stats: (FileStat | null)[] | undefined;
      let digest: string | undefined;
      if (!trusted && byName && coverage.stamps !== undefined) {
        let made = listing.folderStats.get(folder);
        if (!made) {
          if (statEach) stats = statEach(stem, names);
          else {
            stats = [];
            for (const name of names) stats.push(await fs.stat(stem + name).catch(() => null));
          }
          made = { stats, digest: stampsDigest(names, stats) };
          listing.folderStats.set(folder, made);
        }
        ({ stats, digest } = made);
        if (digest !== undefined && coverage.stamps.get(folder) === digest) {
          work.unchanged += names.length;
          loaded += names.length;
          work.digests.set(folder, digest);
          continue;
        }
      }
      const stamps = byName ? await store.loadNamesIn!(section, folder) : await store.loadStampsIn(section, [folder]);
      loaded += stamps.size;
      const found = work.changed.length + work.gone.length;
      let matched = 0;
      for (const [i, name] of names.entries()) {
        const stamp = stamps.get(byName ? name : stem + name);
        if (stamp) matched++;
        if (stamp && trusted && stamp.mtimeMs < hotSince) {
          work.unchanged++;
          continue;
        }
        const stat = stats ? stats[i] : statIn ? statIn(stem, name) : await fs.stat(stem + name).catch(() => null);
        if (!stat?.isFile) {
          if (stamp) work.gone.push(stem + name);
        } else if (!stamp || stat.size !== stamp.size || stat.mtimeMs !== stamp.mtimeMs) work.changed.push(stem, name, stat, stamp !== undefined);
        else work.unchanged++;
        if (done()) return work;
      }
      // The stamps of no listed file (none when every stamp matched one: no set of names made).
      if (matched < stamps.size) {
        if (byName) goneOf(stamps, new Set(names), work.gone, stem);
        else goneOf(stamps, new Set(listing.filesIn(folder)), work.gone);
      }
      // Every file's stamp equal to its stat, and no other record under the folder.
      if (digest !== undefined && work.changed.length + work.gone.length === found) work.digests.set(folder, digest);
      if (done()) return work;
    }
    for (const folder of vanished) {
      const stamps = await store.loadStampsIn(section, [folder]);
      loaded += stamps.size;
      goneOf(stamps, new Set(), work.gone);
    }
    // Where no folder is taken whole, a record under the scope's dir but under no folder compared
    // (directly in it, or in a folder not listed) is of a file gone: looked for only where the
    // store holds more records of the section than those compared, and knows more files under
    // the dir (counts of keys and of paths alone).
    const more = async () => (store.countRecords ? (await store.countRecords(section)) > loaded : true) && (await store.countFilesIn(listing.dir)) > loaded;
    if (covered.size === 0 && (await more())) {
      const compared = new Set([...uncovered, ...vanished]);
      for (const path of (await store.loadStampsIn(section, [listing.dir])).keys()) {
        if (!underAny(compared, path)) work.gone.push(path);
      }
    }
    if (done()) return work;
  }
  // Covered folders: their records modified lately are stat'ed, the others taken as they are.
  let recent = 0;
  for (const [path, stamp] of await store.loadRecentStamps(section, hotSince)) {
    if (!covered.has(dirName(path))) continue;
    recent++;
    const stat = await fs.stat(path).catch(() => null);
    if (!stat?.isFile) work.gone.push(path);
    else if (stat.size !== stamp.size || stat.mtimeMs !== stamp.mtimeMs) work.changed.push(path, "", stat);
    else recent--;
    if (done()) return work;
  }
  keptDigests(work, covered, coverage);
  // The covered folders' files are counted when asked for: a check that wants only to know
  // whether anything changed (`stopAfter`) does not ask, and the store need not count them.
  const counted = work.unchanged - recent;
  let unchanged: number | undefined;
  return {
    changed: work.changed,
    gone: work.gone,
    digests: work.digests,
    get unchanged() {
      return (unchanged ??= [...covered].reduce((sum, folder) => sum + listing.countIn(folder), counted));
    },
  };
}
