/**
 * `list`: the sessions of this directory (or of every project), filtered, sorted and cut, as
 * the `list --json` array; with cursor paging for surfaces that fetch a page at a time.
 * @module
 */
import type { SessionInfo } from "../core/info/session-info.ts";
import { type DateBound, onOrAfter, onOrBefore } from "../core/stats/date-bound.ts";
import { localDays } from "../core/stats/time-buckets.ts";
import { uniquePrefixesAmong } from "../render/unique-prefix.ts";
import { dateOption, timeZoneOption } from "./date-options.ts";
import { QueryError } from "./errors.ts";
import type { QueryEnv } from "./env.ts";
import { parseQuery, scoreSession } from "./resume-search.ts";
import { shortSessionIds } from "./known-ids.ts";
import { cataloguedSessions, withCatalog } from "./scope.ts";
import { sessionModels, usedModel } from "./session-models.ts";

/** The JSON shape of one listed session (SPEC §4; pi's `SessionInfo` with ISO dates). */
export interface SessionJson {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  parentSessionPath: string | null;
  created: string | null;
  modified: string | null;
  messageCount: number;
  firstMessage: string;
}

/** One session as `list --json` gives it. */
export function sessionJson(info: SessionInfo): SessionJson {
  const iso = (d: Date) => (Number.isNaN(d.getTime()) ? null : d.toISOString());
  return {
    path: info.path,
    id: info.id,
    cwd: info.cwd,
    name: info.name ?? null,
    parentSessionPath: info.parentSessionPath ?? null,
    created: iso(info.created),
    modified: iso(info.modified),
    messageCount: info.messageCount,
    firstMessage: info.firstMessage,
  };
}

export const LIST_SORTS = ["modified", "created", "name", "messages", "size"] as const;
export type ListSort = typeof LIST_SORTS[number];

export interface ListOptions {
  /** Every project's sessions (default: the effective cwd's). */
  all?: boolean;
  /** Default `modified` (newest first). */
  sort?: ListSort;
  /** Only sessions with a non-blank name. */
  named?: boolean;
  /** pi's /resume query syntax: words (fuzzy), "phrases", re:REGEX. */
  search?: string;
  /** Only sessions modified on or after this day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d). */
  since?: string;
  /** Only sessions modified on or before this day or month, or before this ISO time (or span back). */
  until?: string;
  /** Only sessions with a reply from a model whose `provider/model` contains this (any case). */
  model?: string;
  /** IANA time zone of `since`'s and `until`'s day (default: the machine's). */
  tz?: string;
  /** At most this many sessions, a whole number above 0 (a string is read as one); default all. */
  limit?: number | string;
  /** Continue after the page that returned this cursor (`nextCursor`). */
  cursor?: string;
  /** Also give `shortIds`: each listed id's shortest prefix unique among every project's sessions. */
  shortIds?: boolean;
}

export interface ListResult {
  /** What `list --json` prints. */
  value: SessionJson[];
  /** Pass as `cursor` for the next page; null when this page is the last (or no `limit` was given). */
  nextCursor: string | null;
  /** With `shortIds`: listed id → printable unique prefix. */
  shortIds?: Map<string, string>;
}

/** What sorting and paging look at: a `SessionInfo`, or a lighter stand-in for one. */
export type Sortable = Pick<SessionInfo, "path" | "modified" | "created" | "name" | "firstMessage" | "messageCount">;

const SORTS: Record<Exclude<ListSort, "size">, (a: Sortable, b: Sortable) => number> = {
  modified: (a, b) => b.modified.getTime() - a.modified.getTime(),
  created: (a, b) => b.created.getTime() - a.created.getTime(),
  name: (a, b) => (a.name ?? a.firstMessage).localeCompare(b.name ?? b.firstMessage),
  messages: (a, b) => b.messageCount - a.messageCount,
};

/** A cursor: the last session of a page, by path, and where it sorted (in case it is gone since). */
export interface Cursor {
  path: string;
  /** Null for a session whose date cannot be read. */
  key: number | string | null;
}

/** The text of a cursor, as `nextCursor` gives it. */
export function encodeCursor(cursor: Cursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify(cursor));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeCursor(text: string): Cursor {
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const value = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
    if (typeof value?.path === "string" && (value.key === null || typeof value.key === "number" || typeof value.key === "string")) return value;
  } catch {
    // reported below
  }
  throw new QueryError("bad-cursor", `Cannot continue the listing from cursor "${text}"`, "Pass the nextCursor of a previous page, or start without one");
}

/** A `limit` checked: a whole number above 0 (undefined: no limit). */
export function checkLimit(limit: unknown, hint = "Pass e.g. --limit 20"): number {
  if (limit === undefined) return Infinity;
  const n = Number(limit);
  if (!Number.isInteger(n) || n < 1) throw new QueryError("bad-option", `--limit must be a whole number above 0, not "${limit}"`, hint);
  return n;
}

/**
 * The sessions of the env's cwd (or with `all`, of every project), `sort`ed (ties keep the
 * catalog's order), filtered by `named`, `since`, `until`, `model` and `search`, and at most
 * `limit` of them from `cursor` on.
 *
 * @example
 * ```ts
 * const first = await listSessions(env, { all: true, limit: 50 });
 * const next = first.nextCursor && await listSessions(env, { all: true, limit: 50, cursor: first.nextCursor });
 * ```
 */
export async function listSessions(env: QueryEnv, options: ListOptions = {}): Promise<ListResult> {
  const checked = checkListOptions(env, options);
  // Through the catalog; a search also needs the message texts (a section of their own), and
  // short ids the ids of every project's sessions, so that each printed id resolves back to its own.
  const models = checked.model === undefined ? undefined : await sessionModels(env, Boolean(options.all));
  const keeps = keepsSession({ ...checked, named: options.named }, models);
  // A search keeps only the sessions it matches as their texts come (none held past its test).
  const withText = checked.query !== undefined;
  // Every project's ids come with every project's sessions; one project's printed ids are
  // shortened from the stored ids nearest each, not by listing every project's sessions too (a
  // project's `list --search` at 25,000 sessions: that listing was most of its 0.8 s and 160 MB).
  const all = Boolean(options.all);
  const listed = await cataloguedSessions(env, all, { withText, knownIds: options.shortIds && all, keep: withText ? keeps : undefined });
  const { page, nextCursor } = await pageOf(listed.kept ? listed.sessions : listed.sessions.filter(keeps), checked, async (path) => (await env.fs.stat(path))?.size ?? 0);
  const ids = page.map((s) => s.id);
  const shortIds = !options.shortIds ? undefined : all ? uniquePrefixesAmong(ids, listed.knownIds) : await withCatalog(env, (catalog) => shortSessionIds(env, catalog, ids));
  return { value: page.map(sessionJson), nextCursor, ...(shortIds ? { shortIds } : {}) };
}

/** A listing's options, checked (each wrong one throws the `QueryError` the CLI prints). */
export interface CheckedListOptions {
  limit: number;
  query?: string;
  sort: ListSort;
  since?: DateBound;
  until?: DateBound;
  model?: string;
  day: (ms: number) => string;
  cursor?: Cursor;
}

/** Checks a listing's options, in the order `list` reports the first wrong one. */
export function checkListOptions(env: QueryEnv, options: ListOptions): CheckedListOptions {
  const limit = checkLimit(options.limit);
  const query = options.search;
  if (query !== undefined) {
    const parsed = parseQuery(query);
    if (parsed.mode === "regex" && parsed.error !== undefined) {
      throw new QueryError("bad-query", `Cannot search for "${query}": ${parsed.error}`, "Check the regular expression after re:");
    }
  }
  const sort = options.sort ?? "modified";
  if (!(LIST_SORTS as readonly string[]).includes(sort)) {
    throw new QueryError("bad-option", `Cannot sort by "${sort}"`, `Sort by one of ${LIST_SORTS.join(", ")}`);
  }
  const since = dateOption(env, "since", options.since);
  const until = dateOption(env, "until", options.until);
  const model = options.model?.trim() || undefined;
  const day = localDays(timeZoneOption(options.tz));
  const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  return { limit, query, sort, since, until, model, day, cursor };
}

/**
 * Whether a session is listed: `named`, `since`, `until`, `model` (its models from `models`) and
 * pi's /resume search syntax (which needs the session's message texts).
 */
export function keepsSession(checked: CheckedListOptions & { named?: boolean }, models?: ReadonlyMap<string, readonly string[]>): (s: SessionInfo) => boolean {
  const { since, until, model, query, day } = checked;
  const parsed = query === undefined || !query.trim() ? undefined : parseQuery(query);
  return (s) => {
    if (checked.named && (s.name === undefined || s.name.trim() === "")) return false;
    const ms = s.modified.getTime();
    if (since && (Number.isNaN(ms) || !onOrAfter(since, ms, day(ms)))) return false;
    if (until && (Number.isNaN(ms) || !onOrBefore(until, ms, day(ms)))) return false;
    if (model !== undefined && !usedModel(models?.get(s.path) ?? [], model)) return false;
    return parsed === undefined || scoreSession(s, parsed) !== undefined;
  };
}

/**
 * The page of `items` (in the catalog's order, newest first) that `checked` asks for: sorted by
 * its sort (ties keep their order), from its cursor on, at most its limit; `sizeOf` gives a
 * file's size for the `size` sort. Sorts `items` in place.
 */
export async function pageOf<T extends Sortable>(items: T[], checked: CheckedListOptions, sizeOf: (path: string) => Promise<number>): Promise<{ page: T[]; nextCursor: string | null }> {
  const { sort, cursor, limit } = checked;
  let keyOf: (s: T) => number | string | null;
  if (sort === "size") {
    const sizes = new Map<string, number>();
    for (const s of items) sizes.set(s.path, await sizeOf(s.path));
    keyOf = (s) => sizes.get(s.path)!;
    items.sort((a, b) => sizes.get(b.path)! - sizes.get(a.path)!);
  } else {
    items.sort(SORTS[sort]);
    const time = (d: Date) => (Number.isNaN(d.getTime()) ? null : d.getTime());
    keyOf = sort === "name" ? (s) => s.name ?? s.firstMessage : sort === "messages" ? (s) => s.messageCount : (s) => time(s[sort]);
  }
  let start = 0;
  if (cursor) {
    const at = items.findIndex((s) => s.path === cursor.path);
    // Gone since: go on from the first session that sorts after where it was.
    const after = (s: T) => {
      const key = keyOf(s);
      if (key === null || cursor.key === null) return false;
      return sort === "name" ? String(cursor.key).localeCompare(String(key)) < 0 : Number(key) < Number(cursor.key);
    };
    const next = items.findIndex(after);
    start = at >= 0 ? at + 1 : next >= 0 ? next : items.length;
  }
  const page = items.slice(start, start + limit);
  const more = start + page.length < items.length;
  const last = page[page.length - 1];
  return { page, nextCursor: more && last ? encodeCursor({ path: last.path, key: keyOf(last) }) : null };
}
