/**
 * Rewriting one old session file as version 3: decide from its bytes (pure), then back up
 * the original and replace it atomically under the file lock. Refuses to drop lines.
 * @module
 */
import { CURRENT_SESSION_VERSION } from "../core/format/types.ts";
import type { IssueCode, ReadIssue } from "../core/read/issue.ts";
import { parseSession } from "../core/read/read-session.ts";
import type { FileSystem } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { toJsonl } from "../session/entry-builders.ts";
import { NotASessionError } from "../session/errors.ts";
import { freeBackupPath, writeBackup } from "../session/backup.ts";
import { describeError } from "./errors.ts";

/** One line of `migrate --json`. */
export interface MigrateResult {
  path: string;
  fromVersion: number | null;
  toVersion: number | null;
  action: "migrated" | "skipped" | "would-migrate" | "error";
  backup?: string;
  message?: string;
  /** The exit code this file asks for (not printed). */
  exitCode: number;
}

/** The flags of `migrate` that change what happens to a file. */
export interface MigrateOptions {
  dryRun: boolean;
  backup: boolean;
  /** Migrate even when lines that cannot be parsed would be dropped. */
  force: boolean;
}

/** Problems whose line the rewrite cannot carry over unchanged. */
const LOST_IN_REWRITE: ReadonlySet<IssueCode> = new Set<IssueCode>(["malformed-json", "torn-line", "not-an-object", "duplicate-header", "invalid-utf8"]);

/** A decision about one file: leave it (with the result to report), or write `bytes`. */
export type Plan =
  | { kind: "skip"; result: Omit<MigrateResult, "path"> }
  | { kind: "rewrite"; fromVersion: number; bytes: Uint8Array; lost: ReadIssue[] };

/** What to do with a file holding `original`: pure, so a dry run decides exactly like a real run. */
export function planMigration(path: string, original: Uint8Array, force: boolean): Plan {
  const file = parseSession(original);
  if (file.notSession || file.header === null) {
    const message = new NotASessionError(path, file.issues).message;
    return { kind: "skip", result: { fromVersion: null, toVersion: null, action: "error", message, exitCode: 3 } };
  }
  const from = file.version;
  if (!file.migrated) {
    const message = from === CURRENT_SESSION_VERSION ? `already v${from}` : `version ${from} is newer than this tool knows (${CURRENT_SESSION_VERSION}); left alone`;
    return { kind: "skip", result: { fromVersion: from, toVersion: from, action: "skipped", message, exitCode: 0 } };
  }
  const lost = file.issues.filter((i) => LOST_IN_REWRITE.has(i.code));
  if (lost.length > 0 && !force) {
    const message = `the rewrite would drop or change ${describeLines(lost)}; fix them, or pass --force (the backup keeps the original)`;
    return { kind: "skip", result: { fromVersion: from, toVersion: null, action: "error", message, exitCode: 1 } };
  }
  const bytes = new TextEncoder().encode(toJsonl([file.header, ...file.entries]));
  return { kind: "rewrite", fromVersion: from, bytes, lost };
}

function describeLines(issues: readonly ReadIssue[]): string {
  const shown = issues.slice(0, 5).map((i) => `line ${i.line} (${i.code})`);
  if (issues.length > 5) shown.push(`${issues.length - 5} more`);
  return `${issues.length === 1 ? "1 line" : `${issues.length} lines`}: ${shown.join(", ")}`;
}

async function readAll(fs: FileSystem, path: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of fs.read(path)) parts.push(chunk);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** Reads `path` and plans its migration. */
export async function planFileMigration(fs: FileSystem, path: string, force: boolean): Promise<Plan> {
  return planMigration(path, await readAll(fs, path), force);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}


function lostNote(lost: readonly ReadIssue[], backup: string | undefined): string | undefined {
  if (lost.length === 0) return undefined;
  return `dropped ${describeLines(lost)}${backup ? `; they are kept in ${backup}` : ""}`;
}

/** Migrates (or, with `dryRun`, plans) one file; failures come back as results, never throws. */
export async function migrateFile(fs: FileSystem, path: string, options: MigrateOptions): Promise<MigrateResult> {
  try {
    const plan = await planFileMigration(fs, path, options.force);
    if (plan.kind === "skip") return { path, ...plan.result };
    const toVersion = CURRENT_SESSION_VERSION;
    if (options.dryRun) {
      const backup = options.backup ? await freeBackupPath(fs, path, plan.fromVersion) : undefined;
      const message = lostNote(plan.lost, undefined);
      return { path, fromVersion: plan.fromVersion, toVersion, action: "would-migrate", ...(backup && { backup }), ...(message && { message }), exitCode: 0 };
    }
    return await withFileLock(fs, path, async () => {
      const stat = await fs.stat(path);
      const mode = (stat?.mode ?? 0) & 0o777;
      if (mode !== 0 && (mode & 0o222) === 0) {
        return { path, fromVersion: plan.fromVersion, toVersion: null, action: "error", message: `${path} is read-only; not rewriting it`, exitCode: 3 };
      }
      // Decide again on what is on disk now: pi appends without taking our lock.
      const original = await readAll(fs, path);
      const now = planMigration(path, original, options.force);
      if (now.kind === "skip") return { path, ...now.result };
      const backup = options.backup ? await writeBackup(fs, path, now.fromVersion, original, mode || 0o600) : undefined;
      const after = await readAll(fs, path);
      if (!sameBytes(after, original)) {
        return { path, fromVersion: now.fromVersion, toVersion: null, action: "error", message: `${path} changed while it was being migrated; not rewriting it`, ...(backup && { backup }), exitCode: 1 };
      }
      await fs.writeAtomic(path, now.bytes, { mode: mode || 0o600 }).catch(async (error) => {
        if (backup) await fs.remove(backup).catch(() => {}); // a failed rewrite leaves nothing of itself
        throw error;
      });
      const message = lostNote(now.lost, backup);
      return { path, fromVersion: now.fromVersion, toVersion, action: "migrated", ...(backup && { backup }), ...(message && { message }), exitCode: 0 };
    });
  } catch (error) {
    const { exitCode, lines } = describeError(error);
    return { path, fromVersion: null, toVersion: null, action: "error", message: lines[0].replace(/^pi-session: /, ""), exitCode };
  }
}
