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
import type { FileSystem } from "../io/file-system.ts";
import { type FolderListing, HOT_MS } from "./folder-check.ts";
import { inDirs } from "./in-dirs.ts";
import { ChangedFiles } from "./changed-files.ts";
import { statInOrNull } from "./stat-now.ts";
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

/** A section's coverage to save: folders to put (with their mtimes) and folders to drop. */
export interface CoverageChange {
  put: Map<string, number>;
  drop: string[];
}

/**
 * The coverage that holds once every file of `listing` is found to have a current record of the
 * section and no other record lies under its scope: every folder whose mtime is known, replacing
 * what `coverage` had; covered folders of the scope no longer listed (in `was`, by default
 * `coverage`) are dropped.
 */
export function fullCoverage(listing: FolderListing, coverage: Coverage, was: Coverage = coverage): CoverageChange {
  const put = new Map<string, number>();
  for (const folder of listing.folders) {
    const mtime = listing.mtimes.get(folder);
    if (mtime !== undefined && coverage.folders.get(folder) !== mtime) put.set(folder, mtime);
  }
  const listed = new Set(listing.folders);
  const belongs = inScope(listing);
  const drop = [...was.folders.keys()].filter((folder) => belongs(folder) && !listed.has(folder));
  return { put, drop };
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

/** What a quick check by coverage found to do: files to read (with their stats), records of files gone. */
export interface CoveredWork {
  changed: ChangedFiles;
  gone: string[];
  /** How many files were found current (counted on first use). */
  unchanged: number;
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
 * With `firstChange`, stops at the first change found (and gives it alone).
 */
export async function coveredWork(
  fs: FileSystem,
  store: CoverageStore,
  section: SectionKey,
  listing: FolderListing,
  coverage: Coverage,
  options: { quick: boolean; now: number; firstChange?: boolean },
): Promise<CoveredWork> {
  const work: CoveredWork = { changed: new ChangedFiles(), gone: [], unchanged: 0 };
  const done = () => options.firstChange === true && (work.changed.length > 0 || work.gone.length > 0);
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
    // The stamps a folder at a time (a full check of 25,000 sessions held all of them at once),
    // by name where the store gives them so: no path per file made, kept or hashed.
    let loaded = 0;
    for (const folder of uncovered) {
      // A changed file is kept as its folder's stem and its name: a cold listing finds every file changed.
      const { stem, names } = listing.namesIn(folder);
      const byName = store.loadNamesIn !== undefined && stem === `${folder}/`;
      const stamps = byName ? await store.loadNamesIn!(section, folder) : await store.loadStampsIn(section, [folder]);
      loaded += stamps.size;
      const trusted = options.quick && listing.unchanged.has(folder);
      let matched = 0;
      for (const name of names) {
        const stamp = stamps.get(byName ? name : stem + name);
        if (stamp) matched++;
        if (stamp && trusted && stamp.mtimeMs < hotSince) {
          work.unchanged++;
          continue;
        }
        const stat = statIn ? statIn(stem, name) : await fs.stat(stem + name).catch(() => null);
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
      if (done()) return work;
    }
    for (const folder of vanished) {
      const stamps = await store.loadStampsIn(section, [folder]);
      loaded += stamps.size;
      goneOf(stamps, new Set(), work.gone);
    }
    // Where no folder is taken whole, a record under the scope's dir but under no folder compared
    // (directly in it, or in a folder not listed) is of a file gone: looked for only where the
    // store knows more files under the dir than the records compared (a count of paths alone).
    if (covered.size === 0 && (await store.countFilesIn(listing.dir)) > loaded) {
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
  // The covered folders' files are counted when asked for: a check that wants only to know
  // whether anything changed (`firstChange`) does not ask, and the store need not count them.
  const counted = work.unchanged - recent;
  let unchanged: number | undefined;
  return {
    changed: work.changed,
    gone: work.gone,
    get unchanged() {
      return (unchanged ??= [...covered].reduce((sum, folder) => sum + listing.countIn(folder), counted));
    },
  };
}
