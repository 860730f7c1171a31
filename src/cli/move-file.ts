/**
 * Moving one session file to pi's folder for its new cwd: refuse when the file is locked or the
 * target name is taken, rename it there under its lock, then rewrite its header through
 * `safeRewrite` (a backup beside it; bytes pi appends meanwhile kept). The decisions are
 * `planMoves`' and `rewriteHeader`'s (pure).
 * @module
 */
import { type PlannedMove, rewriteHeader } from "../core/move/mod.ts";
import { dirName } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { readBytes } from "../io/read-bytes.ts";
import { safeRewrite } from "../session/safe-rewrite.ts";
import { describeError } from "./errors.ts";

/** What happened to one file; `move --json` prints it without `exitCode`. */
export interface MoveResult extends PlannedMove {
  action: "moved" | "would-move" | "rewritten" | "would-rewrite" | "refused" | "error";
  backup?: string;
  /** Lines pi appended while the header was rewritten, kept at the end. */
  carriedLines?: number;
  message?: string;
  exitCode: number;
}

/** A refusal that leaves the file where and as it was. */
class Refused extends Error {}

const HEADER_BYTES = 1024 * 1024;

function headerValues(move: PlannedMove): { cwd: string; parentSession?: string } {
  return move.parentSession === undefined ? { cwd: move.newCwd } : { cwd: move.newCwd, parentSession: move.parentSession };
}

/** Why `move` cannot be done now, or null. Looks only; changes nothing. */
async function refusal(fs: FileSystem, move: PlannedMove): Promise<string | null> {
  const real = await fs.realPath(move.from);
  if ((await fs.stat(`${real}.lock`)) !== null) {
    return `it is locked by another process (${real}.lock); try again once that process is done (a lock left by a process that died can be removed)`;
  }
  if (move.to !== move.from && (await fs.stat(move.to)) !== null) {
    return `${dirName(move.to)} already holds a session named like it; not overwriting ${move.to}`;
  }
  const head = await readBytes(fs, move.from, 0, HEADER_BYTES);
  if (rewriteHeader(head, headerValues(move)) === null) {
    return `its first line has no "cwd" (or "parentSession") field to change; run \`pi-session repair\` on it first`;
  }
  return null;
}

/** Moves (or, with `dryRun`, checks the move of) one file; failures come back as results. */
export async function moveFile(fs: FileSystem, move: PlannedMove, dryRun: boolean): Promise<MoveResult> {
  const inPlace = move.from === move.to;
  try {
    const why = await refusal(fs, move);
    if (why !== null) return { ...move, action: "refused", message: why, exitCode: 1 };
    if (dryRun) return { ...move, action: inPlace ? "would-rewrite" : "would-move", exitCode: 0 };
    if (!inPlace) {
      await fs.mkdir(dirName(move.to), { recursive: true });
      await withFileLock(fs, await fs.realPath(move.from), async () => {
        if ((await fs.stat(move.to)) !== null) throw new Refused(`${move.to} appeared meanwhile; not overwriting it`);
        // A rename keeps the file (its inode): a line pi is appending right now lands in it.
        await fs.rename(move.from, move.to);
      });
    }
    const real = await fs.realPath(move.to);
    const outcome = await safeRewrite(fs, real, (original) => {
      const bytes = rewriteHeader(original, headerValues(move));
      if (bytes === null) throw new Refused(`its header changed meanwhile and has no "cwd" field; the file is at ${move.to}`);
      return { kind: "write", bytes, detail: null, backupName: (n) => `${real}.move.bak${n === 1 ? "" : `.${n}`}` };
    });
    const result: MoveResult = { ...move, action: inPlace ? "rewritten" : "moved", exitCode: 0 };
    if (outcome.written) {
      if (outcome.backup !== undefined) result.backup = outcome.backup;
      if (outcome.carried.lines > 0) result.carriedLines = outcome.carried.lines;
    }
    // pi appends by path, creating the file again if it is gone: a pi still running in the old
    // folder writes there. Say so rather than leave it unnoticed.
    const stray = inPlace ? null : await fs.stat(move.from);
    if (stray !== null) {
      result.message = `something wrote ${stray.size} bytes to ${move.from} after the move (a pi still running there?); they are not in the moved session`;
      result.exitCode = 1;
    }
    return result;
  } catch (error) {
    if (error instanceof Refused) return { ...move, action: "refused", message: error.message, exitCode: 1 };
    const { exitCode, lines } = describeError(error);
    return { ...move, action: "error", message: lines[0].replace(/^pi-session: /, ""), exitCode };
  }
}
