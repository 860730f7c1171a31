/**
 * A file's stat for a check that goes through thousands of files: null where nothing is there
 * or it cannot be stat'ed, answered at once where the file system can (`FileSystem.statNow`):
 * a full check of 25,000 sessions awaited a promise for each stat.
 * @module
 */
import type { FileStat, FileSystem } from "../io/file-system.ts";

/** The stat of a path at once (null: none), or undefined where `fs` only stats through promises. */
export function statNowOrNull(fs: FileSystem): ((path: string) => FileStat | null) | undefined {
  const statNow = fs.statNow;
  if (!statNow) return undefined;
  return (path) => {
    try {
      return statNow.call(fs, path);
    } catch {
      return null;
    }
  };
}

/**
 * `statNowOrNull` of `stem + name`, through `FileSystem.statNowIn` where `fs` has it (no path
 * made), else of the path made; undefined where `fs` only stats through promises.
 */
export function statInOrNull(fs: FileSystem): ((stem: string, name: string) => FileStat | null) | undefined {
  const statNowIn = fs.statNow ? fs.statNowIn : undefined;
  const statNow = statNowOrNull(fs);
  if (!statNowIn) return statNow && ((stem, name) => statNow(stem + name));
  return (stem, name) => {
    try {
      return statNowIn.call(fs, stem, name);
    } catch {
      return null;
    }
  };
}

/**
 * The stats of `stem + name` for each of `names` (null: none), through
 * `FileSystem.statNowEach` where `fs` has it (the folder resolved once), else one by one as
 * `statInOrNull`; undefined where `fs` only stats through promises.
 */
export function statEachOrNull(fs: FileSystem): ((stem: string, names: readonly string[]) => (FileStat | null)[]) | undefined {
  const statNowEach = fs.statNow && fs.statNowIn ? fs.statNowEach : undefined;
  const statIn = statInOrNull(fs);
  if (!statNowEach || !statIn) return statIn && ((stem, names) => names.map((name) => statIn(stem, name)));
  return (stem, names) => {
    try {
      return statNowEach.call(fs, stem, names);
    } catch {
      // One of them threw (a path too long): each on its own, as `statInOrNull` answers it.
      return names.map((name) => statIn(stem, name));
    }
  };
}
