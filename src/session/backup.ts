/**
 * Backups kept before a file is rewritten in a newer format: `FILE.v<N>.bak`, then
 * `.bak.2`, `.bak.3`… An existing backup is never overwritten.
 * @module
 */
import { type FileSystem, isFsError } from "../io/file-system.ts";

/** The first backup name tried for a version-`fromVersion` file: `<file>.v<N>.bak`. */
export function backupPath(path: string, fromVersion: number): string {
  return `${path}.v${fromVersion}.bak`;
}

/** The first free backup name (looked up, not created). */
export async function freeBackupPath(fs: FileSystem, path: string, fromVersion: number): Promise<string> {
  const base = backupPath(path, fromVersion);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}.${n}`;
    if ((await fs.stat(candidate)) === null) return candidate;
  }
}

/**
 * Writes `bytes` to a new backup file and returns its path: whole or not at all (a full disk
 * leaves no empty backup to push the next one to `.bak.2`), and never over another backup.
 */
export async function writeBackup(fs: FileSystem, path: string, fromVersion: number, bytes: Uint8Array, mode: number): Promise<string> {
  for (;;) {
    const candidate = await freeBackupPath(fs, path, fromVersion);
    try {
      await fs.writeAtomic(candidate, bytes, { exclusive: true, mode });
      return candidate;
    } catch (error) {
      if (!isFsError(error, "AlreadyExists")) throw error;
    }
  }
}
