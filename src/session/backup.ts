/**
 * Backups kept before a file is rewritten in a newer format: `FILE.v<N>.bak`, then
 * `.bak.2`, `.bak.3`… An existing backup is never overwritten.
 * @module
 */
import type { FileSystem } from "../io/file-system.ts";
import { runSteps, stat, type Steps } from "../io/io-steps.ts";

/** The first backup name tried for a version-`fromVersion` file: `<file>.v<N>.bak`. */
export function backupPath(path: string, fromVersion: number): string {
  return `${path}.v${fromVersion}.bak`;
}

/** The `n`th backup name tried (from 1): `<file>.v<N>.bak`, then `.bak.2`, `.bak.3`… */
export function backupCandidate(path: string, fromVersion: number, n: number): string {
  const base = backupPath(path, fromVersion);
  return n === 1 ? base : `${base}.${n}`;
}

/** The first free backup name (looked up, not created). */
export function freeBackupPath(fs: FileSystem, path: string, fromVersion: number): Promise<string> {
  return runSteps(fs, freeBackupSteps(path, fromVersion));
}

function* freeBackupSteps(path: string, fromVersion: number): Steps<string> {
  for (let n = 1; ; n++) {
    const candidate = backupCandidate(path, fromVersion, n);
    if ((yield* stat(candidate)) === null) return candidate;
  }
}
