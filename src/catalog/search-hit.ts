/**
 * A search hit as both search paths (index and scan) report it, and how hits are kept: newest
 * first, at most `limit` of them.
 * @module
 */
import type { EntryDoc } from "../core/search/entry-docs.ts";
import { matchTerms, type SearchQuery } from "../core/search/query.ts";
import { makeSnippet, type Snippet } from "../core/search/snippet.ts";

/** One matching document of one entry. */
export interface SearchHit {
  path: string;
  entryId: string | null;
  role: string;
  part: "text" | "thinking";
  timestamp: string | null;
  line: number;
  snippet: Snippet;
}

/** The hits kept, and whether more matched than were kept. */
export interface SearchResult {
  hits: SearchHit[];
  more: boolean;
}

/** The hit for `doc` when it matches `query`. */
export function hitOf(query: SearchQuery, doc: EntryDoc, where: Omit<SearchHit, "role" | "part" | "snippet">): SearchHit | undefined {
  // The snippet shows the stretch where every term occurs closest together, so each is marked.
  const matches = matchTerms(query, doc.text);
  return matches ? { ...where, role: doc.role, part: doc.part, snippet: makeSnippet(doc.text, matches.ranges, undefined, matches.focus) } : undefined;
}

function newestFirst(a: SearchHit, b: SearchHit): number {
  const ta = a.timestamp ?? "";
  const tb = b.timestamp ?? "";
  if (ta !== tb) return ta < tb ? 1 : -1;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line || (a.part < b.part ? -1 : a.part > b.part ? 1 : 0);
}

/** Collects hits, keeping the newest `limit`. */
export class HitCollector {
  readonly limit: number;
  #hits: SearchHit[] = [];
  #dropped = false;
  /** The oldest timestamp still kept once the list has been cut to `limit`. */
  #cutoff: string | undefined;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** True once hits older than some cutoff are being dropped. */
  get narrowed(): boolean {
    return this.#cutoff !== undefined;
  }

  /** False when a hit at `timestamp` could not be among those kept: it need not be built. */
  wants(timestamp: string | null): boolean {
    return this.#cutoff === undefined || (timestamp ?? "") >= this.#cutoff;
  }

  add(hit: SearchHit): void {
    this.#hits.push(hit);
    if (this.#hits.length > 2 * this.limit + 256) this.#trim();
  }

  #trim(): void {
    this.#hits.sort(newestFirst);
    if (this.#hits.length > this.limit) {
      this.#hits.length = this.limit;
      this.#dropped = true;
      this.#cutoff = this.#hits[this.limit - 1].timestamp ?? "";
    }
  }

  result(): SearchResult {
    this.#trim();
    return { hits: this.#hits, more: this.#dropped };
  }
}
