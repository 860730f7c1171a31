/**
 * What the writing commands (name, label, fork, clone) share: a `SessionManager` wired to the
 * CLI's file system, clock and storage, checks made before any write, and clear write errors.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { isFsError } from "../io/file-system.ts";
import type { EntryBase } from "../session/entry-builders.ts";
import { randomEntryId } from "../session/ids.ts";
import { appendLean, type LeanSession, readLeanSession } from "../session/lean-append.ts";
import { backupPath, NotASessionError, readHeader, SessionManager, type SessionManagerOptions } from "../session/mod.ts";
import type { CliContext } from "./context.ts";
import { CliError } from "./errors.ts";
import { planFileMigration } from "./migrate-file.ts";

/** `SessionManager` options that make it use what the CLI was given. */
export function managerOptions(ctx: CliContext): SessionManagerOptions {
  return { fs: ctx.fs, clock: ctx.deps.now, storage: ctx.deps.storage, agentDir: ctx.agentDir };
}

/** The on-disk version of the session at `path`; throws `NotASessionError` (exit 3) if it is none. */
export async function requireSession(ctx: CliContext, path: string): Promise<number> {
  const header = await readHeader(ctx.fs, path);
  if (header === null) throw new NotASessionError(path);
  return typeof header.version === "number" ? header.version : 1;
}

/**
 * Opens `path` for appending, after checking what the manager cannot: that it is a session,
 * that the file is writable, and that an old-format file (which the first append rewrites
 * as v3) would lose no line and gets a fresh backup.
 */
export async function openForAppend(ctx: CliContext, path: string): Promise<SessionManager> {
  const version = await requireSession(ctx, path);
  await refuseReadOnly(ctx, path);
  if (version < 3) {
    const plan = await planFileMigration(ctx.fs, path, false);
    const backup = backupPath(await ctx.fs.realPath(path), version);
    if (plan.kind === "skip" && plan.result.action === "error") {
      throw new CliError("needs-migration", `Cannot append to ${path}: ${plan.result.message}`, "Run `pi-session migrate --force` on it first", 1);
    }
    if ((await ctx.fs.stat(backup)) !== null) {
      throw new CliError("needs-migration", `Cannot append to ${path}: it is a v${version} file and ${backup} already exists`, "Run `pi-session migrate` on it first (it picks a new backup name)", 1);
    }
    ctx.note(`${path} is a v${version} file: it is rewritten as v3 first, the original kept as ${backup}`);
  }
  return await SessionManager.open(path, undefined, managerOptions(ctx));
}

async function refuseReadOnly(ctx: CliContext, path: string): Promise<void> {
  const stat = await ctx.fs.stat(path);
  const mode = (stat?.mode ?? 0) & 0o777;
  if (mode !== 0 && (mode & 0o222) === 0) {
    throw new CliError("read-only", `Cannot write ${path}: the file is read-only`, "Make it writable (chmod u+w) if you mean to change it", 3);
  }
}

/**
 * Opens a current-format session for one append, holding only its ids, leaf and end (so a
 * 1 GB session costs what its ids cost, not its entries); null for an older version, whose
 * first append rewrites it (`openForAppend` then).
 */
export async function openLeanForAppend(ctx: CliContext, path: string): Promise<LeanSession | null> {
  if (await requireSession(ctx, path) < 3) return null;
  await refuseReadOnly(ctx, path);
  return await readLeanSession(ctx.fs, path);
}

/** Appends what `make` builds to a session opened with `openLeanForAppend`; returns it. */
export function appendToLean<T extends SessionEntry>(ctx: CliContext, session: LeanSession, make: (base: EntryBase) => T): Promise<T> {
  return appendLean(ctx.fs, session, make, { clock: ctx.deps.now, newId: randomEntryId });
}

/** Runs a write; a permission problem becomes a clear exit-3 error naming `path`. */
export async function writing<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isFsError(error, "PermissionDenied")) {
      throw new CliError(
        "read-only",
        `Cannot write ${path}: ${error.message}`,
        "Check that you may write to the file and to its directory (the lock is a folder beside the file)",
        3,
      );
    }
    throw error;
  }
}
