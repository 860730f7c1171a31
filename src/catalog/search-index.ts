/**
 * Search through the catalog's FTS5 index: candidates come newest first, a page at a time, and
 * each is confirmed by re-reading its line and running the matcher the scan uses, until `limit`
 * hits are found. The caller refreshes the `docs` section for the files in scope first.
 * @module
 */
import { decodeLine, isObject } from "../core/read/decode-line.ts";
import type { DocBounds, DocFacts } from "../core/search/doc-filter.ts";
import { entryDocs } from "../core/search/entry-docs.ts";
import { ftsExpression } from "../core/search/fts-expression.ts";
import type { SearchQuery } from "../core/search/query.ts";
import type { FileSystem } from "../io/file-system.ts";
import { readBytes } from "../io/read-bytes.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { HitCollector, hitOf, type SearchHit, type SearchResult } from "./search-hit.ts";
import type { CatalogStore, DocScope, IndexedDoc } from "./store.ts";

/** How many hits to keep and which documents count. */
export interface IndexSearchOptions {
  limit: number;
  filter: (doc: DocFacts) => boolean;
  /** The files `inScope` accepts, or more: the store may read only their documents. */
  within?: DocScope;
  /** What `filter` keeps has these in common (`docBounds`): the store may leave the rest out. */
  bounds?: DocBounds;
}

/**
 * Candidates asked for at a time: first twice the hits wanted and one more (most candidates are
 * hits, not all: 47 of the first 51 uses of "test" in the bench's corpus, whose search then took a
 * second page, as long again), then eight times the last page, up to `PAGE_AT_MOST`. The store
 * reads only the rows of the page it gives (sqlite-docs.ts): a first page of 500 read all 419 uses
 * of a word where a search of 50 hits needs about 50. Each page sorts every use of the words
 * again: a search whose filter keeps few of them (thinking only) goes through them all, and
 * pages of 4,096 made that 85 sorts of the 350,000 uses of "test" at 25,000 sessions.
 */
const FIRST_PAGE_PER_HIT = 2;
const PAGE_GROWTH = 8;
export const PAGE_AT_MOST = 32_768;
const READS_AT_ONCE = 16;
const scratch: never[] = [];

/** True when `store` can answer `query` from its index (else scan). */
export function canIndexSearch(store: CatalogStore | null, query: SearchQuery): boolean {
  return Boolean(store?.supportsDocs && store.searchDocs && ftsExpression(query) !== null);
}

/**
 * Hits for `query` among the files `inScope` accepts (whose documents the store has up to date),
 * or null when the index cannot answer: then scan instead.
 */
export async function indexSearch(
  fs: FileSystem,
  store: CatalogStore | null,
  inScope: (path: string) => boolean,
  query: SearchQuery,
  options: IndexSearchOptions,
): Promise<SearchResult | null> {
  const expression = ftsExpression(query);
  if (!canIndexSearch(store, query) || expression === null) return null;
  const hits = new HitCollector(options.limit);
  let found = 0;
  // Where the store reads a scope's documents alone, it lists the matching texts for each page: a
  // first page as large as a second (one project of the bench, "test": 101 candidates gave 45
  // hits, and a second page took as long again, 65 ms). Through every file's uses, a first page
  // of 808 read rows for 5 ms more than one of 101 (every project's, "flaky").
  let within = false;
  try {
    within = options.within !== undefined && store!.searchesWithin?.(options.within) === true;
  } catch {
    return null;
  }
  const first = (FIRST_PAGE_PER_HIT * options.limit + 1) * (within ? PAGE_GROWTH : 1);
  for (let offset = 0, size = Math.min(first, PAGE_AT_MOST); ; offset += size, size = Math.min(size * PAGE_GROWTH, PAGE_AT_MOST)) {
    let page;
    try {
      page = await store!.searchDocs!(expression, offset, size, options.within, options.bounds);
    } catch {
      return offset === 0 ? null : hits.result();
    }
    const candidates = page.filter((doc) => inScope(doc.path) && options.filter(doc));
    for (let next = 0; next < candidates.length;) {
      if (found >= options.limit) return { hits: hits.result().hits, more: true };
      // Nearly every candidate is a hit: the lines of as many as are still wanted are read at once.
      const batch = candidates.slice(next, next + options.limit - found);
      next += batch.length;
      const lines = await mapConcurrent(batch, READS_AT_ONCE, (doc) => readBytes(fs, doc.path, doc.offset, doc.offset + doc.length).catch(() => undefined));
      for (const [i, doc] of batch.entries()) {
        const hit = lines[i] && confirm(query, doc, lines[i]);
        if (!hit) continue;
        hits.add(hit);
        found++;
      }
    }
    if (page.length < size) return hits.result();
  }
}

/** The hit for a candidate document, from its entry's line, when the matcher agrees. */
function confirm(query: SearchQuery, doc: IndexedDoc, bytes: Uint8Array): SearchHit | undefined {
  const decoded = decodeLine({ bytes, number: doc.line, offset: doc.offset, terminated: true }, { bom: false, crlf: false }, scratch);
  scratch.length = 0;
  if (decoded.kind !== "value" || !isObject(decoded.value)) return undefined;
  const text = entryDocs(decoded.value).find((d) => d.role === doc.role && d.part === doc.part);
  // The store may not keep entry ids: the line has it.
  const entryId = doc.entryId ?? (typeof decoded.value.id === "string" ? decoded.value.id : null);
  return text && hitOf(query, text, { path: doc.path, entryId, timestamp: doc.timestamp, line: doc.line });
}
