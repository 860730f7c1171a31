/**
 * The ids a command prints, shortened so that each resolves back to its own session from any
 * directory: unique among every session a reference can name (every project, or the whole custom
 * session dir), not only among the rows printed. The ids are those `resolveSessionRef` resolves
 * against: the header ids the catalog stores for current records, and the headers of the few files
 * without one, read; nothing per session is kept beyond the catalog's stamps.
 * @module
 */
import { walkCollector } from "./walk-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import type { Catalog } from "../catalog/catalog.ts";
import { listingKinds, recordsInfo } from "../catalog/list-cached.ts";
import type { CatalogRecord } from "../catalog/store.ts";
import { listingDigest } from "../core/digest/listing-digest.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { readHeader } from "../session/read-header.ts";
import { type SessionScope, sessionScope } from "./scope.ts";
import type { QueryEnv } from "./env.ts";
import { commonPrefix } from "../render/unique-prefix.ts";
import { type HeaderIdIndex, plainId } from "../catalog/header-id-index.ts";

/** Shortest ids are at least this long (as `uniquePrefixes` makes them). */
const MIN = 8;
/** Files without a current listing record whose headers are read; more, and the listing is refreshed. */
const READ_HEADERS_UP_TO = 256;
/** Headers read between two young collections, without a catalog. */
const HEADERS_COLLECT_EVERY = 500;

/**
 * For each of the sorted, distinct `shown` ids, the longest prefix it shares with any other id
 * met: an id only needs comparing with its neighbours among `shown` in sort order (any shown id
 * further away shares no more with it than that neighbour does, and the shown ids meet each other).
 */
class SharedPrefixes {
  readonly #shown: string[];
  readonly #longest: number[];

  constructor(shown: readonly string[]) {
    this.#shown = [...new Set(shown)].sort();
    this.#longest = this.#shown.map(() => 0);
    for (let i = 1; i < this.#shown.length; i++) {
      const shared = commonPrefix(this.#shown[i - 1], this.#shown[i]);
      this.#raise(i - 1, shared);
      this.#raise(i, shared);
    }
  }

  #raise(i: number, length: number): void {
    if (length > this.#longest[i]) this.#longest[i] = length;
  }

  /** The shown ids, sorted and distinct. */
  get ids(): readonly string[] {
    return this.#shown;
  }

  /** Counts `other` (an id of any session, a shown one too) against its shown neighbours. */
  meet(other: string): void {
    const shown = this.#shown;
    let low = 0;
    let high = shown.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (shown[mid] < other) low = mid + 1;
      else high = mid;
    }
    // `low` is the first shown id ≥ other; an equal one is the same id (a copy of its session).
    const after = low < shown.length && shown[low] === other ? low + 1 : low;
    if (after < shown.length) this.#raise(after, commonPrefix(shown[after], other));
    if (low > 0) this.#raise(low - 1, commonPrefix(shown[low - 1], other));
  }

  /** Each shown id's short form. */
  result(ids: readonly string[]): Map<string, string> {
    const longest = new Map(this.#shown.map((id, i) => [id, this.#longest[i]]));
    return new Map(ids.map((id) => [id, id.slice(0, Math.max(MIN, longest.get(id)! + 1))]));
  }
}

/** The stored ids nearest each of `ids` (below and above), or undefined where the index failed (then every stored id is compared). */
function nearestIds(index: HeaderIdIndex, ids: readonly string[]): string[] | undefined {
  try {
    return index.aroundEach(ids).flat().filter((id): id is string => id !== undefined);
  } catch {
    return undefined;
  }
}

/** Counts the ids in the headers of `files` (read now) against the shown ids. */
async function meetHeaders(env: QueryEnv, files: readonly string[], shared: SharedPrefixes): Promise<void> {
  await mapConcurrent(files, 32, async (path) => {
    const header = await readHeader(env.fs, path);
    if (header) shared.meet(header.id);
  });
}

/**
 * Short forms of `shown`, each unique among `shown` and every known session (the ids a session
 * reference can name, what `resolveSessionRef` searches): as `uniquePrefixesAmong` gives them.
 * `everywhere`: the scope of every project, when the caller listed it already.
 *
 * @example
 * ```ts
 * // const short = await shortSessionIds(env, catalog, rows.map((r) => r.id));
 * // short.get(rows[0].id) -> "019a2b3c-4d5e"
 * ```
 */
export async function shortSessionIds(env: QueryEnv, catalog: Catalog, shown: readonly string[], everywhere?: SessionScope): Promise<Map<string, string>> {
  if (shown.length === 0) return new Map();
  const shared = new SharedPrefixes(shown);
  const scope = everywhere ?? await sessionScope(env, true, catalog);
  // The nearest stored ids of each shown one, through the catalog's index of ids: a few rows each.
  const indexed = scope.listing && shown.every(plainId) ? await catalog.headerIdIndex(listingDigest, scope.listing, scope.dirs) : undefined;
  const nearest = indexed && nearestIds(indexed, shared.ids);
  if (indexed && nearest) {
    for (const id of nearest) shared.meet(id);
    await meetHeaders(env, indexed.unread, shared);
    return shared.result(shown);
  }
  const stored = scope.listing && await catalog.storedHeaderIds(listingDigest, scope.listing, scope.dirs);
  const unknown = stored ? scope.files.filter((path) => !stored.has(path)) : scope.files;
  if (stored && unknown.length <= READ_HEADERS_UP_TO) {
    for (const id of stored.values()) if (id !== null) shared.meet(id);
    // Files without a current record (new or changed since the catalog last listed them): their headers say.
    await meetHeaders(env, unknown, shared);
  } else if (!catalog.store) {
    // No catalog kept (off): the ids from the headers, as a session reference is resolved; a
    // listing of every file would read every file again, 2.5 GB over the 25,000-session corpus.
    const pacer = new GarbagePacer({ everyItems: HEADERS_COLLECT_EVERY, itemsYoung: true });
    for (const path of scope.files) {
      const id = (await readHeader(env.fs, path).catch(() => null))?.id;
      if (typeof id === "string" && id !== "") shared.meet(id);
      // As a scan does (search-scan.ts): the heap would grow with the headers read.
      pacer.item();
    }
  } else {
    // A listing section far from current: the listing of every session, streamed past (and
    // saved, so that the next run finds it current).
    const options = { processCwd: env.storage.processCwd };
    const collect = walkCollector();
    const onRecords = (path: string, records: readonly CatalogRecord[]) => {
      collect();
      const info = recordsInfo(path, records, options);
      if (info) shared.meet(info.id);
    };
    await catalog.refresh(listingKinds(false), scope.files, { listedDirs: scope.dirs, keep: false, onRecords });
  }
  return shared.result(shown);
}
