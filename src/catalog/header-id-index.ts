/**
 * The session ids a reference can name, asked of the store's index of header ids instead of
 * compared one by one: which files have an id starting with `01a2` (`info 01a2`), and which
 * stored ids lie nearest a printed one (its shortest unique prefix). Both need the records of
 * the listing section to be those of the scope's files; the check by coverage (covered-check.ts)
 * proves that, and names the few files it cannot vouch for (new, or changed since they were
 * read): their stored ids are passed over and their headers are to be read. The guarantee is
 * that of the check made: in a quick one, a session whose folder did not change and that was
 * last written over a day ago is taken as stored; a full one stats every file.
 *
 * Only for ids and prefixes of printable ASCII: SQLite orders ids by UTF-8 bytes, JavaScript by
 * UTF-16 code units, and for an ASCII id the two agree on which ids share the longest prefix
 * with it (the first byte of any other character is 0x80 or more).
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import { coveredWork, coversScope, fullCoverage, keepsCoverage } from "./covered-check.ts";
import type { FolderListing } from "./folder-check.ts";
import type { StampCheckHost } from "./stamp-checks.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

/** An id the index can answer for: printable ASCII. */
const PLAIN = /^[ -~]+$/;

/** True when `HeaderIdIndex` can answer for `id` (or prefix). */
export function plainId(id: string): boolean {
  return PLAIN.test(id);
}

/** The stored header ids of a scope's current files, through the store's index. */
export interface HeaderIdIndex {
  /** Files whose stored id is not to be trusted (new, or changed since read): read their headers. */
  readonly unread: readonly string[];
  /** The nearest stored ids below and above `id` (a `plainId`), not `id` itself. May throw (the store's error). */
  around(id: string): [below: string | undefined, above: string | undefined];
  /** `around` of each of `ids`, in one read of the store (sooner than one by one). May throw. */
  aroundEach(ids: readonly string[]): [below: string | undefined, above: string | undefined][];
  /** The files whose stored id starts with `prefix` (a `plainId`). May throw (the store's error). */
  withPrefix(prefix: string): string[];
  /** `withPrefix` with each file's stored id, in the ids' order: `[id, path]`. */
  withPrefixIds(prefix: string): [id: string, path: string][];
}

/**
 * The index over `listing` (of `kind`, the listing section), or undefined where it cannot
 * answer: no such index in the store, the section's records held in memory, or no folder of the
 * scope covered yet (the caller's own comparison, stamp by stamp, then does the same work and
 * saves what it lists). By the quick check where the host trusts it, else by a full one (every
 * file stat'ed, each folder compared with the fingerprint its coverage keeps), which when it finds
 * nothing changed is saved as the listing's full check, with the coverage.
 */
export async function headerIdIndex(host: StampCheckHost, kind: AnyKind, listing: FolderListing, listedDirs: readonly string[]): Promise<HeaderIdIndex | undefined> {
  const { store } = host;
  if (!keepsCoverage(store) || !store.headerIdsFrom || !store.headerlessFiles || host.loaded || !coversScope(listing, listedDirs)) return undefined;
  const from = store.headerIdsFrom.bind(store);
  const quick = host.trust !== undefined;
  let work;
  try {
    const coverage = await store.loadCoverage(kind);
    const covered = (folder: string) => coverage.folders.get(folder) === listing.mtimes.get(folder) && (!quick || listing.unchanged.has(folder));
    if (!listing.folders.some(covered)) return undefined;
    work = await coveredWork(host.fs, store, kind, listing, coverage, { quick, now: host.now });
    if (!quick && work.changed.length === 0 && work.gone.length === 0) {
      await host.saveListing(true);
      await host.saveCoverage(coverage, fullCoverage(listing, coverage, coverage, work.digests));
    }
  } catch {
    // A store that cannot answer: the caller compares the stored ids one by one, as without an index.
    return undefined;
  }
  const changed: string[] = [];
  for (let i = 0; i < work.changed.length; i++) changed.push(work.changed.path(i));
  // Stored ids of files gone or changed are passed over; so are records deeper than the scope's files.
  const passed = new Set([...changed, ...work.gone]);
  const depth = listing.nested ? 2 : 1;
  const inScope = (path: string) => !passed.has(path) && path.slice(listing.dir.length + 1).split("/").length === depth;
  // A file whose record found no usable id is read too, as when stored ids are compared one by one.
  let headerless: string[];
  try {
    headerless = store.headerlessFiles(kind, listing.dir);
  } catch {
    return undefined;
  }
  const unread = [...changed, ...headerless.filter(inScope)];
  const first = (rows: Iterable<[string, string]>): string | undefined => {
    for (const [id, path] of rows) if (inScope(path)) return id;
    return undefined;
  };
  const withPrefixIds = (prefix: string): [string, string][] => {
    const found: [string, string][] = [];
    for (const [id, path] of from(kind, listing.dir, prefix, "up")) {
      if (!id.startsWith(prefix)) break;
      if (inScope(path)) found.push([id, path]);
    }
    return found;
  };
  const around = (id: string): [string | undefined, string | undefined] => [first(from(kind, listing.dir, id, "down")), first(from(kind, listing.dir, id, "above"))];
  const scattered = store.readingScattered?.bind(store) ?? (<T>(read: () => T) => read());
  const nearest = store.nearestHeaderIds?.bind(store);
  // The first rows each way of every id at once, where the store gives them; past a first row
  // of a file passed over, the rows after it as `around` reads them.
  const aroundEach = (ids: readonly string[]) =>
    scattered(() => {
      if (!nearest) return ids.map(around);
      const rows = nearest(kind, listing.dir, ids);
      return ids.map((id, i): [string | undefined, string | undefined] => {
        const [below, above] = rows[i];
        return [
          below === undefined || inScope(below[1]) ? below?.[0] : first(from(kind, listing.dir, id, "down")),
          above === undefined || inScope(above[1]) ? above?.[0] : first(from(kind, listing.dir, id, "above")),
        ];
      });
    });
  return {
    unread,
    around,
    aroundEach,
    withPrefix: (prefix) => withPrefixIds(prefix).map(([, path]) => path),
    withPrefixIds,
  };
}
