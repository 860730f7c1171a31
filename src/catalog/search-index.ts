/**
 * Search through the catalog's FTS5 index: bring the index up to date for the files in scope,
 * take the candidates newest first, and confirm each by re-reading its line and running the
 * same matcher the scan uses, until `limit` hits are found.
 * @module
 */
import { docsDigest } from "../core/digest/docs-digest.ts";
import { decodeLine, isObject } from "../core/read/decode-line.ts";
import type { DocFacts } from "../core/search/doc-filter.ts";
import { entryDocs } from "../core/search/entry-docs.ts";
import { ftsExpression } from "../core/search/fts-expression.ts";
import type { SearchQuery } from "../core/search/query.ts";
import type { Catalog, RefreshOptions } from "./catalog.ts";
import { readBytes } from "./read-bytes.ts";
import { HitCollector, hitOf, type SearchResult } from "./search-hit.ts";

/** How many hits to keep and which documents count. */
export interface IndexSearchOptions extends RefreshOptions {
  limit: number;
  filter: (doc: DocFacts) => boolean;
}

const scratch: never[] = [];

/**
 * Hits for `query` among `files`, or null when the index cannot answer (no full-text store,
 * or a query the index cannot narrow, such as a regex): then scan instead.
 */
export async function indexSearch(catalog: Catalog, files: readonly string[], query: SearchQuery, options: IndexSearchOptions): Promise<SearchResult | null> {
  const store = catalog.store;
  const expression = ftsExpression(query);
  if (!store?.supportsDocs || !store.searchDocs || expression === null) return null;
  const view = await catalog.refresh([docsDigest], files, options);
  const inScope = view.records(docsDigest);
  let candidates;
  try {
    candidates = await store.searchDocs(expression);
  } catch {
    return null;
  }
  const hits = new HitCollector(options.limit);
  let found = 0;
  for (const doc of candidates) {
    if (!inScope.has(doc.path) || !options.filter(doc)) continue;
    if (found >= options.limit) return { hits: hits.result().hits, more: true };
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(catalog.fs, doc.path, doc.offset, doc.offset + doc.length);
    } catch {
      continue;
    }
    const decoded = decodeLine({ bytes, number: doc.line, offset: doc.offset, terminated: true }, { bom: false, crlf: false }, scratch);
    scratch.length = 0;
    if (decoded.kind !== "value" || !isObject(decoded.value)) continue;
    const text = entryDocs(decoded.value).find((d) => d.role === doc.role && d.part === doc.part);
    const hit = text && hitOf(query, text, { path: doc.path, entryId: doc.entryId, timestamp: doc.timestamp, line: doc.line });
    if (!hit) continue;
    hits.add(hit);
    found++;
  }
  return hits.result();
}
