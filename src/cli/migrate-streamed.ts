/**
 * `migrate` of an old-format file too big to hold (64 MB and more): under the file lock it is
 * read line by line twice (`StreamedMigration`), once to decide as a whole read would, once to
 * write the migrated lines into the new file, and backed up by copying
 * (`safeRewriteStreamed`). The same bytes, backup, lock and guarantees as the whole-file way
 * (`migrate-file.ts`); lines others append meanwhile are carried over as written, and counted.
 * @module
 */
import { type LineSink, type MigrationVerdict, StreamedMigration } from "../core/migrate/streamed-migration.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import type { FileSystem } from "../io/file-system.ts";
import { Pieces } from "../session/pieces.ts";
import { safeRewriteStreamed } from "../session/safe-rewrite.ts";
import { unmigratedCarried } from "./migrate-carried.ts";
import { type MigrateOptions, type MigrateResult, migratedResult, migrationVerdict, rewriteDecision, type Verdict, wouldMigrate } from "./migrate-file.ts";

/** Bytes read between two full collections: each pass leaves its lines' garbage behind as it goes. */
const COLLECT_EVERY = 64 * 1024 * 1024;

/** The first `size` bytes of `file` read through a migration (into `out` when given). */
async function readThrough(fs: FileSystem, file: string, size: number, out?: LineSink): Promise<MigrationVerdict> {
  const migration = new StreamedMigration(out);
  const pacer = new GarbagePacer({ everyAmount: COLLECT_EVERY });
  for await (const chunk of fs.read(file, { start: 0, end: size, reuseBuffer: true })) {
    migration.push(chunk);
    pacer.add(chunk.length);
  }
  return migration.end();
}

/** The migrated file's bytes, a piece at a time; each piece is valid until the next is asked for. */
async function* migratedBytes(fs: FileSystem, file: string, size: number): AsyncGenerator<Uint8Array> {
  const out = new Pieces();
  const migration = new StreamedMigration(out);
  const pacer = new GarbagePacer({ everyAmount: COLLECT_EVERY });
  for await (const chunk of fs.read(file, { start: 0, end: size, reuseBuffer: true })) {
    migration.push(chunk);
    pacer.add(chunk.length);
    // Pieces made from this chunk go out before the next is read (some are views of it).
    yield* out.ready;
    out.release();
  }
  migration.end();
  out.flush();
  yield* out.ready;
  out.release();
}

/** `migrateFile` for a big old-format file (see the module comment); failures are thrown. */
export async function migrateStreamed(fs: FileSystem, path: string, options: MigrateOptions): Promise<MigrateResult> {
  const real = await fs.realPath(path);
  if (options.dryRun) {
    const size = (await fs.stat(real))?.size ?? 0;
    const verdict = migrationVerdict(path, await readThrough(fs, real, size), options.force);
    return verdict.kind === "skip" ? { path, ...verdict.result } : await wouldMigrate(fs, path, real, verdict, options);
  }
  const outcome = await safeRewriteStreamed(fs, real, async (source, size, stat) => {
    const verdict = migrationVerdict(path, await readThrough(fs, source, size), options.force);
    if (verdict.kind === "skip") return { kind: "keep", detail: { path, ...verdict.result } };
    return rewriteDecision(path, real, stat, verdict, () => migratedBytes(fs, source, size), options);
  });
  if (!outcome.written) return outcome.detail as MigrateResult;
  return migratedResult(path, outcome.detail as Verdict & { kind: "rewrite" }, outcome.backup, unmigratedCarried(outcome.carried));
}
