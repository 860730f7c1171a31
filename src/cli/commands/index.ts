/**
 * `index`: brings the catalog up to date for every session (listing, usage, file references
 * and, where SQLite is available, the full-text index), so later commands read nothing.
 * Other commands keep it current on their own; this is for warming it up or checking on it.
 * @module
 */
import { walkCollector } from "../../query/walk-garbage.ts";
import type { CatalogRecord } from "../../catalog/store.ts";
import { docsDigest } from "../../core/digest/docs-digest.ts";
import { filesDigest } from "../../core/digest/files-digest.ts";
import { listingDigest } from "../../core/digest/listing-digest.ts";
import { usageDigest } from "../../core/digest/usage-digest.ts";
import { tildePath } from "../../core/storage/paths.ts";
import { sessionScope, withCatalog, withProgress } from "../../query/scope.ts";
import type { CommandSpec } from "../command.ts";
import { CliError } from "../errors.ts";
import { clearFirstPages } from "../interactive/pick/first-page.ts";

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** `index` could not write the catalog (exit 3, as for any output that cannot be written). */
function unwritable(location: string, reason: string): CliError {
  return new CliError("catalog-unwritable", `Cannot write the catalog at ${location}: ${reason}`, "Check that the cache folder can be written (XDG_CACHE_HOME, ~/.cache), or run without a catalog: PI_SESSION_CATALOG=off", 3);
}

/** `pi-session index`. */
export const indexCommand: CommandSpec = {
  name: "index",
  summary: "Update the session catalog (the cache behind list, stats, files and search)",
  options: [
    { flags: "--rebuild", description: "drop the catalog (and the picker's kept first pages) first and read every session again" },
    { flags: "--stats", description: "also show where the catalog is, its size and what it holds" },
  ],
  examples: ["pi-session index", "pi-session index --rebuild --stats", "PI_SESSION_CATALOG=file pi-session index --json"],
  async run(ctx, _args, opts) {
    const every = await sessionScope(ctx, true);
    const report = await withCatalog(ctx, async (catalog) => {
      const store = catalog.store;
      if (opts.rebuild) {
        await Promise.all([
          catalog.clear().catch((error: Error) => {
            throw unwritable(store?.location ?? "", error.message);
          }),
          clearFirstPages(ctx),
        ]);
      }
      const kinds = [listingDigest, usageDigest, filesDigest, ...(store?.supportsDocs ? [docsDigest] : [])];
      const [options, done] = withProgress(ctx, "Indexing sessions", { listedDirs: every.dirs });
      let view;
      if (store?.loadPaths && store.loadStamps) {
        // The notes about bad headers from the listing's records only: handing every section's
        // records of every unchanged file to `onRecords` loaded them all, a 1.2 GB session's
        // usage rows and search documents among them, to read one header state.
        const { onRecords, ...walk } = options;
        const collect = walkCollector();
        const noted = (path: string, records: readonly CatalogRecord[]) => (collect(), onRecords?.(path, records));
        view = await catalog.refresh(kinds, every.files, { ...walk, keep: false })
          .then(async (view) => (await catalog.refresh([listingDigest], every.files, { listedDirs: every.dirs, onRecords: noted, keep: false }), view))
          .finally(done);
      } else view = await catalog.refresh(kinds, every.files, { ...options, keep: false }).finally(done);
      // The answer of `index` is the catalog written: a save that failed is its failure.
      if (store && catalog.saveProblem !== undefined) throw unwritable(store.location, catalog.saveProblem);
      // A cold build is compacted when the catalog closes: done first, the size shown is the size kept.
      if (opts.stats) catalog.compactIfDue();
      const description = opts.stats && store ? await store.describe().catch(() => undefined) : undefined;
      return {
        store: store ? { kind: store.kind, location: store.location, fullText: store.supportsDocs } : null,
        sections: kinds.map((k) => k.name),
        counts: view.counts,
        ...(description ? { description } : {}),
      };
    }, { verify: Boolean(opts.rebuild), reportsSaves: true });
    if (ctx.json) {
      ctx.outJson(report);
      return 0;
    }
    const { counts, store } = report;
    const home = ctx.deps.storage.home;
    ctx.out(
      `Indexed ${counts.files} session files: ${counts.read} read, ${counts.appended} appended, ${counts.touched} touched, ` +
        `${counts.unchanged} unchanged, ${counts.removed} removed${counts.unreadable > 0 ? `, ${counts.unreadable} unreadable` : ""} (${mb(counts.bytesRead)} read)`,
    );
    ctx.out(store ? `Catalog: ${store.kind} at ${tildePath(store.location, home)}${store.fullText ? ", with full-text search" : ""}` : "Catalog: off (PI_SESSION_CATALOG=off); nothing is kept");
    const d = report.description;
    if (d) {
      ctx.out(`Size: ${mb(d.bytes)}`);
      for (const s of d.sections) ctx.out(`  ${s.name} (v${s.version}): ${s.records} files`);
      if (d.docs !== undefined) ctx.out(`  full-text documents: ${d.docs}`);
    }
    return 0;
  },
};
