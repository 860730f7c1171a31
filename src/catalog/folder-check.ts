/**
 * The quick check: how a warm run avoids listing every project folder and stat'ing every session
 * file. A folder's mtime changes when a name in it is added, removed or renamed, so a folder whose
 * mtime is the one it had when last listed has the same files: its names come from the catalog.
 * An append to a file changes the file's mtime but not its folder's, so within such a folder only
 * the files active lately (modified within `HOT_MS` when last seen) are stat'ed, and the others
 * are taken as they were at the section's last full check, which is never older than
 * `FULL_CHECK_EVERY_MS` (else this run makes a full check: every file stat'ed).
 *
 * The guarantee: new, removed and renamed sessions are always seen, and so are changes to the
 * sessions active in the last day; a change to an older session made without a change of its
 * folder is seen at the next full check (at most a minute later, or at once with
 * `PI_SESSION_CHECK=full`).
 *
 * A caller that promises a full check of its own soon after (`later`: the CLI's read-only
 * commands run themselves again in the background, see src/cli/check-later.ts) is given the
 * quick check even when the last full check is over a minute old, provided there was one in the
 * last day (`PUT_OFF_AT_MOST_MS`): at 25,000 sessions the stats alone are 80-90 ms, most of a warm
 * `search`. Such a change is then seen by the runs that start after that background check ends.
 * @module
 */
import { dirName, joinPath } from "../core/storage/paths.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { namesDigest } from "./folder-digest.ts";
import type { FolderRecord, FolderSnapshot, RecordStamp, SectionKey } from "./store.ts";

/** `auto`: the quick check when a full one is recent; `full`: stat every file, list every folder. */
export type CheckMode = "auto" | "full";

/** A section is checked in full again when its last full check is older than this. */
export const FULL_CHECK_EVERY_MS = 60_000;
/**
 * A full check older than this is made at once even by a caller that would put it off (`later`
 * in `quickTrust`): should the promised checks never come (a background run that cannot start,
 * a cache that cannot be written), an answer is never more than this behind.
 */
export const PUT_OFF_AT_MOST_MS = 24 * 60 * 60 * 1000;
/** Files modified this recently (as last seen) are stat'ed even in the quick check. */
export const HOT_MS = 24 * 60 * 60 * 1000;
/**
 * A folder listed less than this after its mtime may have changed again within the same mtime
 * tick (coarse clocks, network file systems): it is listed again rather than trusted.
 */
export const RACY_MS = 2_000;

/** The session files of a scope as listed through the folder snapshot, and what to save after. */
export interface FolderListing {
  /** The scope's directory, and whether its files are in its folders (`nested`) or in it. */
  dir: string;
  nested: boolean;
  /** Every session file, folder by folder (made on first use: a quick check may need none). */
  readonly files: string[];
  /** `files` if something has made them already, else undefined (nothing made). */
  madeFiles(): string[] | undefined;
  /** The folders the files are directly in, in the files' order: the project folders (nested), or the dir. */
  folders: string[];
  /** The session files directly in `folder` (one of `folders`), newest name first. */
  filesIn(folder: string): string[];
  /** The same files as `filesIn`, as their folder's joined prefix (`stem`) and their names, in the same order. */
  namesIn(folder: string): { stem: string; names: string[] };
  /** How many session files are directly in `folder` (without making their paths). */
  countIn(folder: string): number;
  /** The mtime each folder had when its names were listed (absent: a folder whose names are not kept). */
  mtimes: ReadonlyMap<string, number>;
  /** Folders whose names came from the catalog: their files may be taken on trust. */
  unchanged: ReadonlySet<string>;
  /** Folders listed this time (to save), and folders gone (to drop). */
  listed: FolderRecord[];
  removed: string[];
  /** The snapshot loaded, null when the store keeps none (then every check is full). */
  snapshot: FolderSnapshot | null;
  /** When the listing started: a full check counts from then. */
  startedMs: number;
  /**
   * The stats of a folder's files (in `namesIn` order) and their fingerprint, made once for this
   * listing by the first full check of a folder (covered-check.ts): a run that checks two sections
   * (`search` printing short ids checks its documents and the listing) stats each file once.
   */
  readonly folderStats: Map<string, FolderStats>;
}

/** A folder's files stat'ed for a listing (`FolderListing.folderStats`). */
export interface FolderStats {
  stats: (FileStat | null)[];
  /** `stampsDigest` of them, undefined where it makes none. */
  digest: string | undefined;
}

/** The key a section's full check is kept under. */
export function checkKey(section: SectionKey): string {
  return `${section.name}@${section.version}`;
}

/** The names in `dir` that `keep` accepts (none when it cannot be listed), and its mtime before listing. */
async function listFolder(fs: FileSystem, dir: string, keep: "files" | "dirs"): Promise<{ names: string[]; mtimeMs: number | null }> {
  const stat = await fs.stat(dir).catch(() => null);
  if (!stat?.isDirectory) return { names: [], mtimeMs: null };
  try {
    const entries = await fs.list(dir);
    const names = entries.filter((e) => (keep === "dirs" ? e.isDirectory : e.isFile && e.name.endsWith(".jsonl"))).map((e) => e.name);
    return { names, mtimeMs: stat.mtimeMs };
  } catch {
    return { names: [], mtimeMs: null };
  }
}

/** A stored folder whose names still hold: same mtime, and listed well after that mtime. */
function stillHolds(stored: FolderRecord | undefined, mtimeMs: number | undefined): stored is FolderRecord {
  return stored !== undefined && mtimeMs !== undefined && stored.mtimeMs === mtimeMs && stored.listedMs - stored.mtimeMs >= RACY_MS;
}

/** A stored folder that still holds (`stillHolds`) with the names just listed, in any order. */
function sameFolder(stored: FolderRecord | undefined, mtimeMs: number, names: readonly string[]): boolean {
  if (!stillHolds(stored, mtimeMs)) return false;
  // Listed again unchanged, a folder gives its names in the same order: their fingerprint, where
  // kept, is compared without the stored names read; else one comparison of them, no split.
  if (stored.digest !== undefined && stored.digest === namesDigest(names)) return true;
  if (stored.lines !== undefined && stored.lines === names.join("\n")) return true;
  const storedNames = stored.names;
  if (storedNames.length !== names.length) return false;
  const known = new Set(storedNames);
  return names.every((name) => known.has(name));
}

/**
 * The session files of `dir` (`nested`: of each project folder in it, as `<agentDir>/sessions`),
 * each folder listed only when its mtime says it changed (always in `full` mode, or without a
 * snapshot). Files come newest name first within a folder, as `sessionFilesIn` gives them.
 */
export async function listThroughFolders(
  fs: FileSystem,
  snapshot: FolderSnapshot | null,
  dir: string,
  options: { nested: boolean; mode: CheckMode; now: number },
): Promise<FolderListing> {
  const startedMs = options.now;
  const trusting = snapshot !== null && options.mode === "auto";
  const listed: FolderRecord[] = [];
  const unchanged = new Set<string>();
  const mtimes = new Map<string, number>();
  /** Unchanged folders as stored: how many names each has, where the snapshot tells without them (asked when wanted). */
  const kept = new Map<string, FolderRecord>();
  /** The names in `folder` (those of a stored folder are split on first use). */
  const take = async (folder: string, keep: "files" | "dirs"): Promise<() => string[]> => {
    const stored = trusting ? snapshot.folders.get(folder) : undefined;
    if (stored) {
      const mtimeMs = (await fs.stat(folder).catch(() => null))?.mtimeMs;
      if (stillHolds(stored, mtimeMs)) {
        unchanged.add(folder);
        mtimes.set(folder, stored.mtimeMs);
        kept.set(folder, stored);
        return () => stored.names;
      }
    }
    const { names, mtimeMs } = await listFolder(fs, folder, keep);
    // A name with a newline cannot be kept in the SQLite store's list: such a folder is listed every time.
    if (mtimeMs !== null && !names.some((n) => n.includes("\n"))) {
      // Saved again only when it differs from the stored one (a full check lists every folder), or
      // to have the fingerprint of its names kept where the stored one has none.
      const before = snapshot?.folders.get(folder);
      const undigested = snapshot?.digests === true && before !== undefined && before.digest === undefined;
      if (undigested || !sameFolder(before, mtimeMs, names)) listed.push({ path: folder, mtimeMs, listedMs: startedMs, names });
      mtimes.set(folder, mtimeMs);
    }
    return () => names;
  };
  const namesOf = new Map<string, () => string[]>();
  let folders: string[];
  if (options.nested) {
    folders = (await take(dir, "dirs"))().map((name) => joinPath(dir, name));
    for (const folder of folders) namesOf.set(folder, await take(folder, "files"));
  } else {
    folders = [dir];
    namesOf.set(dir, await take(dir, "files"));
  }
  let files: string[] | undefined;
  /**
   * Once `files` are made: each folder's first and past-last place among them. The names are
   * then let go (the files hold their text): kept, they were a second string per session for as
   * long as the listing lived (2.5 MB at 25,000 sessions, through a whole `stats` or picker load).
   */
  let ranges: Map<string, readonly [number, number]> | undefined;
  // Sorted by name: the paths of one folder share all before it. A name holds no separator, so
  // joining is the folder's joined prefix and the name.
  const namesIn = (folder: string) => {
    const stem = joinPath(folder, "-").slice(0, -1);
    if (ranges) return { stem, names: filesIn(folder).map((path) => path.slice(stem.length)) };
    const names = namesOf.get(folder)?.() ?? [];
    return { stem, names: [...names].sort().reverse() };
  };
  const filesIn = (folder: string): string[] => {
    if (ranges) {
      const range = ranges.get(folder);
      return range ? files!.slice(range[0], range[1]) : [];
    }
    const { stem, names } = namesIn(folder);
    return names.map((name) => stem + name);
  };
  const makeFiles = (): string[] => {
    const made: string[] = [];
    const at = new Map<string, readonly [number, number]>();
    for (const folder of folders) {
      const start = made.length;
      for (const path of filesIn(folder)) made.push(path);
      at.set(folder, [start, made.length]);
    }
    ranges = at;
    namesOf.clear();
    return made;
  };
  // Folders under `dir` no longer there (the snapshot of other scopes is left alone).
  const present = new Set([dir, ...folders]);
  const removed = snapshot ? [...snapshot.folders.keys()].filter((path) => !present.has(path) && (path === dir || dirName(path) === dir)) : [];
  return {
    dir,
    nested: options.nested,
    get files() {
      files ??= makeFiles();
      return files;
    },
    madeFiles: () => files,
    folders,
    filesIn,
    namesIn,
    countIn: (folder) => {
      if (!ranges) return kept.get(folder)?.count ?? namesOf.get(folder)?.().length ?? 0;
      const range = ranges.get(folder);
      return range ? range[1] - range[0] : 0;
    },
    mtimes,
    unchanged,
    listed,
    removed,
    snapshot,
    startedMs,
    folderStats: new Map(),
  };
}

/**
 * For a refresh of `sections` over `listing`: the test of files taken on trust (the quick check),
 * or undefined when this refresh must be a full check (mode `full`, no snapshot, a section never
 * checked in full or whose last full check is in the future or older than `PUT_OFF_AT_MOST_MS`,
 * or one whose last full check is older than `FULL_CHECK_EVERY_MS`, unless `later` is given:
 * then it is called, the caller's promise of a full check soon).
 */
export function quickTrust(
  listing: FolderListing,
  sections: readonly SectionKey[],
  options: { mode: CheckMode; now: number; later?: () => void },
): ((path: string, stamp: RecordStamp) => boolean) | undefined {
  const { snapshot } = listing;
  if (options.mode === "full" || snapshot === null || listing.unchanged.size === 0) return undefined;
  let stale = false;
  for (const section of sections) {
    const at = snapshot.fullChecks.get(checkKey(section));
    if (at === undefined || options.now - at > PUT_OFF_AT_MOST_MS || at > options.now) return undefined;
    if (options.now - at > FULL_CHECK_EVERY_MS) stale = true;
  }
  if (stale) {
    if (!options.later) return undefined;
    options.later();
  }
  const hotSince = options.now - HOT_MS;
  return (path, stamp) => stamp.mtimeMs < hotSince && listing.unchanged.has(dirName(path));
}
