/**
 * `search`: full text over what was said and done in sessions (user, assistant, tool and bash
 * text; thinking on request; names, labels and summaries), newest hits first. Uses the
 * catalog's FTS5 index where SQLite is available, else streams the files; both give the same hits.
 * @module
 */
import type { SessionInfo } from "../core/info/session-info.ts";
import { docBounds, docFilter } from "../core/search/doc-filter.ts";
import { DOC_ROLES } from "../core/search/entry-docs.ts";
import { parseSearchQuery, type SearchQuery } from "../core/search/query.ts";
import type { Snippet } from "../core/search/snippet.ts";
import type { SearchHit } from "../catalog/search-hit.ts";
import { searchSessions } from "../catalog/search-sessions.ts";
import { dateOption, timeZoneOption } from "./date-options.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { shortSessionIds } from "./known-ids.ts";
import { checkLimit } from "./list.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { type SessionScope, sessionScope, withProgress } from "./scope.ts";

export { DOC_ROLES };

export interface SearchOptions {
  /** Words (each must occur, at the start of a word), "phrases", or with `regex` a pattern. */
  query: string;
  /** Every project (default: the env cwd's sessions). */
  all?: boolean;
  regex?: boolean;
  /** With `regex`: ignore case (plain queries always do). */
  ignoreCase?: boolean;
  /** Only these roles (`DOC_ROLES`, or the aliases tool and bash): an array or a comma-separated list. */
  roles?: string | readonly string[];
  /** Also search the assistant's thinking. */
  thinking?: boolean;
  /** Day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d), as `--since` takes it. */
  since?: string;
  until?: string;
  /** IANA time zone of day bounds (default: the machine's). */
  tz?: string;
  /** Only this session's entries: a path, id, unique id prefix or `@` (then `all` does not matter). */
  session?: string;
  /** At most this many hits, newest first (default 50); a whole number above 0 (a string is read as one). */
  limit?: number | string;
  /** Also give `shortIds` for the sessions hit. */
  shortIds?: boolean;
  /** Scan rather than build a cold full-text index first (see `SearchSessionsOptions.scanWhenCold`). */
  scanWhenCold?: boolean;
}

/** One hit as `search --json` prints it. */
export interface SearchHitJson {
  path: string;
  sessionId: string | null;
  cwd: string | null;
  name: string | null;
  entryId: string | null;
  role: string;
  part: "text" | "thinking";
  timestamp: string | null;
  line: number;
  snippet: string;
  /** [start, end) offsets of the matches in `snippet`. */
  marks: Snippet["marks"];
}

export interface SearchResultValue {
  /** What `search --json` prints. */
  value: SearchHitJson[];
  /** The hits with their snippets, for views that mark the matches. */
  hits: SearchHit[];
  /** More hits matched than `limit` kept. */
  more: boolean;
  /** Listing details of each session hit, by path. */
  sessions: Map<string, SessionInfo>;
  /** With `shortIds`: session id → printable unique prefix. */
  shortIds?: Map<string, string>;
  /** With `scanWhenCold`: the files were scanned, the full-text index is still to be built (`pi-session index`). */
  indexCold?: boolean;
}

const ALIASES: Record<string, string> = { tool: "toolResult", bash: "bashExecution" };

function checkRoles(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = (typeof value === "string" ? value.split(",") : value).map((r) => r.trim()).filter(Boolean).map((r) => ALIASES[r] ?? r);
  const bad = list.find((r) => !(DOC_ROLES as readonly string[]).includes(r));
  if (bad) throw new QueryError("bad-option", `--role: unknown role "${bad}"`, `Use one or more of ${DOC_ROLES.join(", ")} (or tool, bash), separated by commas`);
  return list;
}

function parseQuery(source: string, options: SearchOptions): SearchQuery {
  try {
    return parseSearchQuery(source, { regex: Boolean(options.regex), ignoreCase: Boolean(options.ignoreCase) });
  } catch (error) {
    throw new QueryError("bad-query", `Cannot search for "${source}": ${(error as Error).message}`, options.regex ? "Check the regular expression" : "Give at least one word");
  }
}

function hitJson(hit: SearchHit, session: SessionInfo | undefined): SearchHitJson {
  return {
    path: hit.path,
    sessionId: session?.id ?? null,
    cwd: session?.cwd ?? null,
    name: session?.name ?? null,
    entryId: hit.entryId,
    role: hit.role,
    part: hit.part,
    timestamp: hit.timestamp,
    line: hit.line,
    snippet: hit.snippet.text,
    marks: hit.snippet.marks,
  };
}

/** The newest `limit` hits of a query among the sessions of the env cwd (or every project, or one session). */
export async function searchText(env: QueryEnv, options: SearchOptions): Promise<SearchResultValue> {
  const q = parseQuery(options.query, options);
  const limit = checkLimit(options.limit ?? 50);
  const filterOptions = {
    roles: checkRoles(options.roles),
    thinking: Boolean(options.thinking),
    since: dateOption(env, "since", options.since),
    until: dateOption(env, "until", options.until),
    tz: timeZoneOption(options.tz),
  };
  const filter = docFilter(filterOptions);
  // One session: its file alone is the scope (through the same index, so a 1 GB session is searched as fast).
  const only = options.session === undefined ? undefined : await resolveSessionRef(env, options.session);
  const { result, sessions, shortIds, indexCold } = await env.withCatalog(async (catalog) => {
    const scope: SessionScope = only === undefined ? await sessionScope(env, Boolean(options.all), catalog) : { files: [only], dirs: [] };
    const [refresh, done] = withProgress(env, "Searching sessions", { listedDirs: scope.dirs, listing: scope.listing });
    try {
      const found = await searchSessions(catalog, scope, q, {
        limit,
        filter,
        bounds: docBounds(filterOptions),
        cwdFilter: scope.cwdFilter,
        processCwd: env.storage.processCwd,
        refresh,
        onBadHeader: refresh.onBadHeader,
        scanWhenCold: options.scanWhenCold,
      });
      if (!options.shortIds) return { ...found, shortIds: undefined };
      // Printed ids are unique among every project's sessions, so each resolves back to its own.
      const ids = [...new Set(found.result.hits.map((hit) => found.sessions.get(hit.path)?.id ?? "?"))];
      const everywhere = options.all && only === undefined ? scope : undefined;
      return { ...found, shortIds: await shortSessionIds(env, catalog, ids, everywhere) };
    } finally {
      done();
    }
  });
  return {
    value: result.hits.map((hit) => hitJson(hit, sessions.get(hit.path))),
    hits: result.hits,
    more: result.more,
    sessions,
    ...(shortIds ? { shortIds } : {}),
    ...(indexCold ? { indexCold } : {}),
  };
}
