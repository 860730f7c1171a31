/**
 * The catalog holds the text of session files that are only their owner's (0600): its folder is
 * kept 0700 and every file in it 0600, when made and, for what an older version left readable
 * by others, whenever the catalog is opened.
 * @module
 */
import { joinPath } from "../core/storage/paths.ts";
import { type FileSystem, isFsError } from "../io/file-system.ts";

/** The catalog folder's permissions: its owner's only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Every catalog file's permissions. */
export const PRIVATE_FILE_MODE = 0o600;

/** `path` set to `mode` when its bits differ (where the file system has permissions). */
async function restrict(fs: FileSystem, path: string, mode: number, isDir: boolean): Promise<void> {
  if (!fs.chmod) return;
  const stat = await fs.stat(path);
  if (stat === null || stat.isDirectory !== isDir || (stat.mode & 0o777) === mode) return;
  await fs.chmod(path, mode);
}

/**
 * Creates `dir` (and its parents) if missing, and makes it 0700. Parents keep the modes they
 * are given: only the catalog's own folder is narrowed.
 */
export async function makePrivateDir(fs: FileSystem, dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await restrict(fs, dir, PRIVATE_DIR_MODE, true);
}

/**
 * Makes an existing catalog folder 0700, each file in it 0600 and each folder in it (a lock) 0700:
 * true when done (the folder is there and private). A folder that is not there is left alone
 * (false, as where the file system has no permissions); anything else that fails is thrown.
 */
export async function makePrivate(fs: FileSystem, dir: string): Promise<boolean> {
  if (!fs.chmod) return false;
  let entries;
  try {
    entries = await fs.list(dir);
  } catch (error) {
    if (isFsError(error, "NotFound")) return false;
    throw error;
  }
  await restrict(fs, dir, PRIVATE_DIR_MODE, true);
  for (const entry of entries) {
    const path = joinPath(dir, entry.name);
    try {
      if (entry.isFile) await restrict(fs, path, PRIVATE_FILE_MODE, false);
      else if (entry.isDirectory) await restrict(fs, path, PRIVATE_DIR_MODE, true);
    } catch (error) {
      // Gone meanwhile (a temp file renamed, a lock released): nothing to protect.
      if (!isFsError(error, "NotFound")) throw error;
    }
  }
  return true;
}
