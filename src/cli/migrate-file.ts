/**
 * Rewriting one old session file as version 3: decide from its bytes (pure), then back up
 * the original and replace it atomically under the file lock. Refuses to drop lines.
 * @module
 */
import { CURRENT_SESSION_VERSION } from "../core/format/types.ts";
import type { IssueCode, ReadIssue } from "../core/read/issue.ts";
import { headerVersion } from "../core/migrate/migrate-session.ts";
import { parseSession } from "../core/read/read-session.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import type { StepData } from "../io/io-steps.ts";
import { toJsonl } from "../session/entry-builders.ts";
import { NotASessionError } from "../session/errors.ts";
import { readHeader } from "../session/read-header.ts";
import { backupCandidate, freeBackupPath } from "../session/backup.ts";
import { type RewriteDecision, safeRewrite } from "../session/safe-rewrite.ts";
import { type CarriedLines, carriedNote, migrateCarried } from "./migrate-carried.ts";
import { migrateStreamed } from "./migrate-streamed.ts";
import { describeError } from "./errors.ts";

/** One line of `migrate --json`. */
export interface MigrateResult {
  path: string;
  fromVersion: number | null;
  toVersion: number | null;
  action: "migrated" | "skipped" | "would-migrate" | "error";
  backup?: string;
  message?: string;
  /** Lines others appended while the file was rewritten, kept at the end of the new file. */
  carriedLines?: number;
  /** The exit code this file asks for (not printed). */
  exitCode: number;
}

/** The flags of `migrate` that change what happens to a file. */
export interface MigrateOptions {
  dryRun: boolean;
  backup: boolean;
  /** Migrate even when lines that cannot be parsed would be dropped. */
  force: boolean;
  /** Files from this size on are read line by line, never whole (`migrate-streamed.ts`); 64 MB by default. */
  streamFrom?: number;
}

/** Old files from this size on are migrated streamed. */
const STREAM_FROM = 64 * 1024 * 1024;

/** Problems whose line the rewrite cannot carry over unchanged. */
const LOST_IN_REWRITE: ReadonlySet<IssueCode> = new Set<IssueCode>(["malformed-json", "torn-line", "too-deep", "not-an-object", "duplicate-header", "invalid-utf8"]);

/** A decision about one file, before its new bytes are made: leave it (with the result to report), or rewrite it. */
export type Verdict =
  | { kind: "skip"; result: Omit<MigrateResult, "path"> }
  | { kind: "rewrite"; fromVersion: number; lost: ReadIssue[] };

/** A decision about one file: leave it (with the result to report), or write `bytes`. */
export type Plan = Exclude<Verdict, { kind: "rewrite" }> | { kind: "rewrite"; fromVersion: number; bytes: Uint8Array; lost: ReadIssue[] };

/** What a read of the whole file says, as far as migrating it goes. */
export interface ReadVerdict {
  notSession: boolean;
  version: number;
  migrated: boolean;
  issues: ReadIssue[];
}

/** The plan for a file whose header says it needs no migration (version `from`, current or newer). */
function upToDate(from: number): Extract<Verdict, { kind: "skip" }> {
  const message = from === CURRENT_SESSION_VERSION ? `already v${from}` : `version ${from} is newer than this tool knows (${CURRENT_SESSION_VERSION}); left alone`;
  return { kind: "skip", result: { fromVersion: from, toVersion: from, action: "skipped", message, exitCode: 0 } };
}

/** What to do with a file a read of which says `file`: pure, so a dry run decides exactly like a real run. */
export function migrationVerdict(path: string, file: ReadVerdict, force: boolean): Verdict {
  if (file.notSession) {
    const message = new NotASessionError(path, file.issues).message;
    return { kind: "skip", result: { fromVersion: null, toVersion: null, action: "error", message, exitCode: 3 } };
  }
  const from = file.version;
  if (!file.migrated) return upToDate(from);
  const lost = file.issues.filter((i) => LOST_IN_REWRITE.has(i.code));
  if (lost.length > 0 && !force) {
    const message = `the rewrite would drop or change ${describeLines(lost)}; fix them, or pass --force (the backup keeps the original)`;
    return { kind: "skip", result: { fromVersion: from, toVersion: null, action: "error", message, exitCode: 1 } };
  }
  return { kind: "rewrite", fromVersion: from, lost };
}

/** What to do with a file holding `original`: pure, so a dry run decides exactly like a real run. */
export function planMigration(path: string, original: Uint8Array, force: boolean): Plan {
  const file = parseSession(original);
  const verdict = migrationVerdict(path, file, force);
  if (verdict.kind === "skip") return verdict;
  return { ...verdict, bytes: new TextEncoder().encode(toJsonl([file.header!, ...file.entries])) };
}

/**
 * How a file is rewritten once its verdict says so: refused when it is read-only, else written
 * with `bytes`, backed up under the first free `.v<N>.bak` name when asked.
 */
export function rewriteDecision<V extends Verdict & { kind: "rewrite" }>(
  path: string,
  real: string,
  stat: FileStat,
  verdict: V,
  bytes: StepData,
  options: MigrateOptions,
): RewriteDecision<V | MigrateResult> {
  const mode = stat.mode & 0o777;
  if (mode !== 0 && (mode & 0o222) === 0) {
    return { kind: "keep", detail: { path, fromVersion: verdict.fromVersion, toVersion: null, action: "error", message: `${path} is read-only; not rewriting it`, exitCode: 3 } };
  }
  const backupName = options.backup ? (n: number) => backupCandidate(real, verdict.fromVersion, n) : undefined;
  return { kind: "write", bytes, detail: verdict, ...(backupName && { backupName }) };
}

/** The result of a dry run that would rewrite the file. */
export async function wouldMigrate(fs: FileSystem, path: string, real: string, verdict: Verdict & { kind: "rewrite" }, options: MigrateOptions): Promise<MigrateResult> {
  const backup = options.backup ? await freeBackupPath(fs, real, verdict.fromVersion) : undefined;
  const message = lostNote(verdict.lost, undefined);
  return { path, fromVersion: verdict.fromVersion, toVersion: CURRENT_SESSION_VERSION, action: "would-migrate", ...(backup && { backup }), ...(message && { message }), exitCode: 0 };
}

/** The result of a migration that was written. */
export function migratedResult(path: string, verdict: Verdict & { kind: "rewrite" }, backup: string | undefined, carried: CarriedLines): MigrateResult {
  const message = [lostNote(verdict.lost, backup), carriedNote(carried)].filter((note) => note !== undefined).join("; ");
  return {
    path,
    fromVersion: verdict.fromVersion,
    toVersion: CURRENT_SESSION_VERSION,
    action: "migrated",
    ...(backup && { backup }),
    ...(message && { message }),
    ...(carried.lines > 0 && { carriedLines: carried.lines }),
    exitCode: 0,
  };
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

/**
 * Reads `path` and plans its migration. A file whose header is current or newer is left alone
 * whatever follows it, so its header is all that is read (a 1 GB session is not read whole).
 */
export async function planFileMigration(fs: FileSystem, path: string, force: boolean): Promise<Plan> {
  const header = await readHeader(fs, path);
  if (header !== null && headerVersion(header as unknown as Record<string, unknown>) >= CURRENT_SESSION_VERSION) {
    return upToDate(headerVersion(header as unknown as Record<string, unknown>));
  }
  return planMigration(path, await readAll(fs, path), force);
}

function lostNote(lost: readonly ReadIssue[], backup: string | undefined): string | undefined {
  if (lost.length === 0) return undefined;
  return `dropped ${describeLines(lost)}${backup ? `; they are kept in ${backup}` : ""}`;
}

/**
 * Migrates (or, with `dryRun`, plans) one file; failures come back as results, never throws.
 * A symbolic link is followed: the target is rewritten and backed up beside itself, the link
 * stays. Lines pi appends while the rewrite runs are carried over to the new file (see
 * `safeRewrite`) and counted in the message; old-format ones are then migrated too
 * (`migrateCarried`).
 */
export async function migrateFile(fs: FileSystem, path: string, options: MigrateOptions): Promise<MigrateResult> {
  try {
    const header = await readHeader(fs, path);
    if (header !== null && headerVersion(header as unknown as Record<string, unknown>) >= CURRENT_SESSION_VERSION) {
      return { path, ...upToDate(headerVersion(header as unknown as Record<string, unknown>)).result };
    }
    if (((await fs.stat(path))?.size ?? 0) >= (options.streamFrom ?? STREAM_FROM)) return await migrateStreamed(fs, path, options);
    const plan = await planFileMigration(fs, path, options.force);
    // A refusal over lines the rewrite would drop is decided again under the lock: a torn last
    // line may be one pi was still writing when this unlocked read ran.
    if (plan.kind === "skip" && (options.dryRun || plan.result.exitCode !== 1)) return { path, ...plan.result };
    const real = await fs.realPath(path);
    if (options.dryRun && plan.kind === "rewrite") return await wouldMigrate(fs, path, real, plan, options);
    // Decided again under the lock, on what is on disk then: pi appends without taking our lock.
    let seen: Uint8Array = new Uint8Array(0);
    const outcome = await safeRewrite(fs, real, (original, stat): RewriteDecision<Plan | MigrateResult> => {
      seen = original;
      const now = planMigration(path, original, options.force);
      if (now.kind === "skip") return { kind: "keep", detail: { path, ...now.result } };
      return rewriteDecision(path, real, stat, now, now.bytes, options);
    });
    if (!outcome.written) return outcome.detail as MigrateResult;
    const now = outcome.detail as Plan & { kind: "rewrite" };
    const written = { original: seen, written: now.bytes, carried: outcome.carried, lost: now.lost.length };
    const carried = await migrateCarried(fs, path, real, written, options.force);
    return migratedResult(path, now, outcome.backup, carried);
  } catch (error) {
    const { exitCode, lines } = describeError(error);
    return { path, fromVersion: null, toVersion: null, action: "error", message: lines[0].replace(/^pi-session: /, ""), exitCode };
  }
}
