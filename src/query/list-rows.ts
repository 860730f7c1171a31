/**
 * `list` read from the catalog's listing rows (src/catalog/list-row.ts): the sessions come in
 * their sort order a row at a time, straight from SQLite, so that neither the records nor the
 * sessions are ever all held; unchanged folders cost no work per file. Same sessions, same
 * order, same values as `listSessions`, where the store keeps rows and the options allow
 * (no `search`, `model` or `cursor`; sorted by `modified` or `messages`); elsewhere the caller
 * takes `listSessions`.
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import type { ByIdRow, OrderedColumns, OrderedRow, ProjectRow, RowOrder, SizedRow, TableColumns } from "../catalog/list-row.ts";
import type { FolderListing } from "../catalog/folder-check.ts";
import type { RowsRefresh } from "../catalog/refresh-rows.ts";
import { inCwd } from "../catalog/list-cached.ts";
import { onOrAfter, onOrBefore } from "../core/stats/date-bound.ts";
import { localDays } from "../core/stats/time-buckets.ts";
import { listingDigest } from "../core/digest/listing-digest.ts";
import { joinPath } from "../core/storage/paths.ts";
import { collectGarbage } from "../io/collect-garbage.ts";
import { oneLine } from "../render/control-chars.ts";
import { SortedPrefixes } from "../render/unique-prefix.ts";
import { dateOption, timeZoneOption } from "./date-options.ts";
import type { QueryEnv } from "./env.ts";
import { shortSessionIds } from "./known-ids.ts";
import { checkLimit, LIST_SORTS, type ListOptions, type SessionJson } from "./list.ts";
import { scopePlaces, withCatalog } from "./scope.ts";

/** Bytes a refresh reads from which its garbage is collected before the rows are read (as a streamed read collects). */
const COLLECT_AFTER_BYTES = 64 * 1024 * 1024;

/** A listing to read, as many times as wanted, while its catalog is open. */
export interface ListedRows {
  /**
   * The listed sessions in order (filters and, unless `limited` is false, `limit` applied);
   * without `full`, no path, parent or created.
   */
  rows(full?: boolean, limited?: boolean): Iterable<OrderedRow>;
  /** The ids of `byId`'s sessions alone, in its order, where the store can give them so. */
  ids?(): Iterable<string>;
  /** The sessions of `byId` whose ids are among `ids`, in no order (no path, no first message), where the store can. */
  withIds?(ids: readonly string[]): Iterable<ByIdRow>;
  /** `byId`'s sessions in no order, with their files' sizes and paths, where the store can. */
  sized?(): Iterable<SizedRow>;
  /**
   * Every known session (with `shortIds`: of every project, or the whole custom session dir),
   * by id; `first` only `withFirst` (else ""), and a path only where `listed` needs it (else "").
   */
  byId(withFirst: boolean): Iterable<ByIdRow>;
  /** Whether a session of `byId` is listed (`rows` gives it, `limit` aside); undefined when every one is. */
  listed: ((row: ByIdRow) => boolean) | undefined;
  /** The sessions of `rows(false)` as columns, read at once, where the store can and every one is listed (no filter or limit). */
  columns?(): OrderedColumns;
  /** `columns` with the titles as bytes (`TableColumns`), where the store can; undefined from it: use `columns`. */
  tableColumns?(): TableColumns | undefined;
  /** The sessions of `rows` and their messages added up by cwd, in no order. */
  projects?(): Iterable<ProjectRow>;
  /** Shortest unique prefixes (`uniquePrefixesAmong` every known id) of the ids that `keep` accepts. */
  shortIds(keep: (id: string, listed: boolean) => boolean): Map<string, string>;
  /**
   * The same prefixes of the `shown` ids, from the stored ids nearest each (`shortSessionIds`)
   * where every project was listed: a few rows read for each, not every known id (a project of 70
   * sessions among 25,000 read and sorted 25,000 ids for its table, 80 ms). For a few ids.
   */
  shortIdsOf(shown: readonly string[]): Promise<Map<string, string>>;
}

/** A row as `list --json` gives it (what `sessionJson` makes of the same session). */
export function rowJson(row: OrderedRow): SessionJson {
  return {
    path: row.path,
    id: row.id,
    cwd: row.cwd,
    name: row.name,
    parentSessionPath: row.parent,
    created: row.created === null ? null : new Date(row.created).toISOString(),
    modified: new Date(row.modified).toISOString(),
    messageCount: row.messages,
    firstMessage: row.first,
  };
}

/** Lists `dir` through the catalog and brings its rows up to date, with progress; gives the listing. */
async function refreshListing(env: QueryEnv, catalog: Catalog, dir: string, nested: boolean): Promise<{ refreshed: RowsRefresh | undefined; listing: FolderListing }> {
  const listing = await catalog.listFiles(dir, nested);
  const progress = env.report.progress("Reading sessions");
  try {
    const refreshed = await catalog.refreshRows(listingDigest, listing, dir, { onProgress: (done, total) => progress.update(done, total) });
    return { refreshed, listing };
  } finally {
    progress.end();
  }
}

/**
 * Runs `work` over the listing of `options` read from the catalog's rows, and gives its result;
 * undefined (nothing done, nothing printed) where rows cannot give it: call `listSessions`.
 * Throws the same errors as `listSessions` for bad options. `notes.badHeaders` false: files whose
 * header cannot be used are not told of (a caller whose own walk told of them already).
 */
export async function withListedRows<T>(env: QueryEnv, options: ListOptions, work: (listed: ListedRows) => Promise<T>, notes: { badHeaders?: boolean } = {}): Promise<T | undefined> {
  const sort = options.sort ?? "modified";
  if (options.search !== undefined || options.model?.trim() || options.cursor !== undefined) return undefined;
  if (!(LIST_SORTS as readonly string[]).includes(sort) || (sort !== "modified" && sort !== "messages")) return undefined;
  const limit = checkLimit(options.limit);
  const since = dateOption(env, "since", options.since);
  const until = dateOption(env, "until", options.until);
  const day = localDays(timeZoneOption(options.tz));
  return withCatalog(env, async (catalog) => {
    const rowStore = catalog.store?.listRows;
    if (!rowStore) return undefined;
    const all = Boolean(options.all);
    const choice = await env.sessionDir();
    const places = await scopePlaces(env, all);
    // Short ids are unique among every project's sessions: then every project is listed.
    const everywhere = all || Boolean(options.shortIds);
    const dir = everywhere ? (choice.custom ? choice.dir : joinPath(env.agentDir, "sessions")) : places.dirs[0];
    // The listing's paths are made only where asked for (`shortIdsOf` falling back on a walk).
    const { refreshed, listing: files } = await refreshListing(env, catalog, dir, everywhere && !choice.custom);
    const folders = files.folders;
    if (!refreshed || refreshed.odd) return undefined;
    // A refresh that read much (a cold listing reads every file) leaves its garbage to let go
    // before the rows come. A warm one's is a few MB (the stamps compared, a few files read):
    // left to the engine, as two full collections cost a warm `list --all` of 25,000 sessions
    // 12% of its CPU (and the allocations after them, page faults), for 6 MB more at its peak.
    if (refreshed.counts.bytesRead >= COLLECT_AFTER_BYTES) collectGarbage();
    const version = listingDigest.version;
    const shownFolders = all ? folders : places.dirs;
    // The files skipped among those listed: one project's list lists every project only to shorten its ids.
    for (const [path, why] of refreshed.bad && notes.badHeaders !== false ? rowStore.badHeaders(version, shownFolders) : []) {
      env.report.note(`pi-session: skipped ${oneLine(path)}: line 1 is a session header but ${why}`);
    }
    const ofCwd = inCwd({ cwdFilter: places.cwdFilter, processCwd: env.storage.processCwd });
    const filtered = Boolean(options.named) || since !== undefined || until !== undefined || places.cwdFilter !== undefined;
    const keep = (row: Pick<OrderedRow, "name" | "modified" | "cwd">): boolean =>
      (!options.named || (row.name !== null && row.name.trim() !== "")) &&
      (!since || onOrAfter(since, row.modified, day(row.modified))) &&
      (!until || onOrBefore(until, row.modified, day(row.modified))) &&
      ofCwd(row.cwd);
    const inShown = (path: string) => path.startsWith(places.dirs[0] + "/");
    // Rows of every project, unfiltered, are all listed: no test per row.
    const listed = all ? (filtered ? keep : undefined) : (row: ByIdRow) => inShown(row.path) && keep(row);
    const kept = function* (rows: Iterable<OrderedRow>, most: number): Generator<OrderedRow> {
      let count = 0;
      for (const row of rows) {
        if (!keep(row)) continue;
        yield row;
        if (++count >= most) return;
      }
    };
    const listing: ListedRows = {
      rows(full = true, limited = true) {
        const rows = rowStore.ordered(version, shownFolders, sort as RowOrder, full);
        if (!limited) return filtered ? kept(rows, Infinity) : rows;
        return filtered || limit !== Infinity ? kept(rows, limit) : rows;
      },
      ids: rowStore.ids ? () => rowStore.ids!(version, folders) : undefined,
      sized: rowStore.sized ? () => rowStore.sized!(version, folders) : undefined,
      withIds: rowStore.withIds ? (ids) => rowStore.withIds!(version, folders, ids) : undefined,
      columns: rowStore.orderedColumns && !filtered && limit === Infinity ? () => rowStore.orderedColumns!(version, shownFolders, sort as RowOrder) : undefined,
      // Room for every file listed: no session more, and at most a few files that are none.
      tableColumns: rowStore.tableColumns && !filtered && limit === Infinity ? () => rowStore.tableColumns!(version, shownFolders, sort as RowOrder, refreshed.counts.files) : undefined,
      projects() {
        if (!filtered && limit === Infinity && rowStore.projects) return rowStore.projects(version, shownFolders);
        const counts = new Map<string, ProjectRow>();
        for (const row of listing.rows(false)) {
          const count = counts.get(row.cwd) ?? counts.set(row.cwd, { cwd: row.cwd, sessions: 0, messages: 0 }).get(row.cwd)!;
          count.sessions++;
          count.messages += row.messages;
        }
        return counts.values();
      },
      byId(withFirst) {
        return rowStore.byId(version, folders, { path: !all, first: withFirst });
      },
      listed,
      shortIds(wanted) {
        const prefixes = new SortedPrefixes();
        for (const row of listing.byId(false)) prefixes.push(row.id, wanted(row.id, listed === undefined || listed(row)));
        return new Map([...prefixes.end()].map(([id, length]) => [id, id.slice(0, length)]));
      },
      shortIdsOf(shown) {
        if (everywhere) return shortSessionIds(env, catalog, shown, { dirs: [dir], listing: files, get files() {
          return files.files;
        } });
        const wanted = new Set(shown);
        return Promise.resolve(listing.shortIds((id) => wanted.has(id)));
      },
    };
    return work(listing);
  });
}
