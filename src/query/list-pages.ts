/**
 * `list` for a server, without every session in memory at once: a plan (the listed paths of
 * one page, in order, and the next cursor) read in order from the catalog's listing rows where
 * it keeps them and the options allow (list-rows.ts: nothing held but the paths), else made
 * from a walk of the catalog that keeps a few fields per session; then the page's JSON a slice
 * at a time, loaded again by path. The same sessions, order and cursors as `listSessions`.
 * @module
 */
import { listingDigest } from "../core/digest/listing-digest.ts";
import type { CatalogRecord } from "../catalog/store.ts";
import { listingKinds, recordsInfo } from "../catalog/list-cached.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import type { QueryEnv } from "./env.ts";
import { checkListOptions, encodeCursor, keepsSession, type ListOptions, listSessions, pageOf, type SessionJson, sessionJson, type Sortable } from "./list.ts";
import { withListedRows } from "./list-rows.ts";
import { scopePlaces, sessionScope, withCatalog, withProgress } from "./scope.ts";
import { sessionModels } from "./session-models.ts";
import { walkCollector } from "./walk-garbage.ts";

/** The listed paths of one page, in order, and the cursor of the next page (null: none). */
export interface ListPlan {
  paths: string[];
  nextCursor: string | null;
}

/** What a plan keeps of one session: what sorting and paging look at, the first message only to sort by name. */
function sortable(info: SessionInfo, byName: boolean): Sortable {
  const { path, modified, created, name, messageCount } = info;
  return { path, modified, created, name, messageCount, firstMessage: byName ? info.firstMessage : "" };
}

/**
 * Walks the catalog's records of the scope once, handing each file's records to `each`, and
 * holding none; false (and nothing walked) when the catalog cannot load records by path (no
 * store, or the file store): the caller then lists the usual way.
 */
function walkListing(env: QueryEnv, all: boolean, withText: boolean, each: (path: string, records: readonly CatalogRecord[]) => void): Promise<boolean> {
  return withCatalog(env, async (catalog) => {
    const store = catalog.store;
    if (!store?.loadPaths || !store.loadStamps) return false;
    const scope = await sessionScope(env, all, catalog);
    const [progress, done] = withProgress(env, "Reading sessions", { listedDirs: scope.dirs, listing: scope.listing });
    const collect = walkCollector();
    try {
      await catalog.refresh(listingKinds(withText), scope.files, {
        ...progress,
        keep: false,
        onRecords: (path, records) => {
          collect();
          progress.onRecords?.(path, records);
          each(path, records);
        },
      });
    } finally {
      done();
    }
    return true;
  });
}

/**
 * The plan of the page `options` asks for, as `listSessions` would list it; undefined when the
 * catalog cannot walk (then use `listSessions`). Holds a few fields per listed session.
 */
export async function planListing(env: QueryEnv, options: ListOptions = {}): Promise<ListPlan | undefined> {
  const checked = checkListOptions(env, options);
  const fromRows = await planFromRows(env, options, checked.limit);
  if (fromRows !== undefined) return fromRows;
  const all = Boolean(options.all);
  const models = checked.model === undefined ? undefined : await sessionModels(env, all);
  const keeps = keepsSession({ ...checked, named: options.named }, models);
  const { cwdFilter } = await scopePlaces(env, all);
  const processCwd = env.storage.processCwd;
  const listed: Sortable[] = [];
  const walked = await walkListing(env, all, checked.query !== undefined, (path, records) => {
    const info = recordsInfo(path, records, { cwdFilter, processCwd });
    if (info !== null && keeps(info)) listed.push(sortable(info, checked.sort === "name"));
  });
  if (!walked) return undefined;
  // Newest first, as the catalog lists them (ties keep the walk's order), before the sort asked for.
  listed.sort((a, b) => b.modified.getTime() - a.modified.getTime());
  const { page, nextCursor } = await pageOf(listed, checked, async (path) => (await env.fs.stat(path))?.size ?? 0);
  return { paths: page.map((s) => s.path), nextCursor };
}

/**
 * The plan read from the catalog's listing rows, in order, a row at a time: only the page's
 * paths are kept (and whether one more row follows, for the cursor). Undefined where the rows
 * cannot give the listing (a search, a model, a cursor, another sort; no rows): `withListedRows`.
 */
function planFromRows(env: QueryEnv, options: ListOptions, limit: number): Promise<ListPlan | undefined> {
  const sort = options.sort ?? "modified";
  return withListedRows(env, { ...options, limit: undefined }, async (listed) => {
    const paths: string[] = [];
    let last: { path: string; key: number } | undefined;
    for (const row of listed.rows()) {
      if (paths.length === limit) return { paths, nextCursor: encodeCursor(last!) };
      paths.push(row.path);
      last = { path: row.path, key: sort === "messages" ? row.messages : row.modified };
    }
    return { paths, nextCursor: null };
  });
}

/**
 * The `list --json` values of `paths` (a slice of a plan), in that order, from the catalog's
 * stored records (a file changed since is read again); a session gone since is left out.
 */
export function listedJson(env: QueryEnv, paths: readonly string[]): Promise<SessionJson[]> {
  return withCatalog(env, async (catalog) => {
    const stored = await catalog.store?.loadPaths?.(listingDigest, paths).catch(() => undefined) ?? new Map<string, CatalogRecord>();
    // Current when the file's size and mtime are the record's; the others (rare) refreshed.
    const stale: string[] = [];
    for (const path of paths) {
      const record = stored.get(path);
      const stat = await env.fs.stat(path).catch(() => null);
      if (!record || !stat?.isFile || stat.size !== record.size || stat.mtimeMs !== record.mtimeMs) stale.push(path);
    }
    if (stale.length > 0) {
      const view = await catalog.refresh([listingDigest], stale, { partial: true });
      for (const path of stale) stored.delete(path);
      for (const [path, record] of view.records(listingDigest)) stored.set(path, record);
    }
    const out: SessionJson[] = [];
    for (const path of paths) {
      const record = stored.get(path);
      const info = record && recordsInfo(path, [record]);
      if (info) out.push(sessionJson(info));
    }
    return out;
  }, { brief: true });
}

/** Sessions and messages of one project (the header's cwd), as `list --all` counts them. */
export interface ProjectCount {
  cwd: string;
  sessions: number;
  messages: number;
}

/**
 * Every project's sessions and messages (of `list --all`), added up from the catalog's listing
 * rows (or, where it keeps none, as its records are walked): one count per project is held, not
 * one listing per session.
 */
export async function projectCounts(env: QueryEnv): Promise<ProjectCount[]> {
  const counts = new Map<string, ProjectCount>();
  const add = (info: Pick<SessionInfo, "cwd" | "messageCount">) => {
    const count = counts.get(info.cwd) ?? counts.set(info.cwd, { cwd: info.cwd, sessions: 0, messages: 0 }).get(info.cwd)!;
    count.sessions++;
    count.messages += info.messageCount;
  };
  // Added up by the store where it can (one row per project), else as the rows are read.
  const fromRows = await withListedRows(env, { all: true }, async (listed) => [...listed.projects!()]);
  if (fromRows) return fromRows;
  const processCwd = env.storage.processCwd;
  const walked = await walkListing(env, true, false, (path, records) => {
    const info = recordsInfo(path, records, { processCwd });
    if (info !== null) add(info);
  });
  if (!walked) {
    for (const s of (await listSessions(env, { all: true })).value) add(s);
  }
  return [...counts.values()];
}
