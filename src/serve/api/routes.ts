/**
 * The JSON API: each route reads its parameters, calls one query, and answers with the value
 * that the matching CLI command prints with `--json` (secrets masked unless `--no-redact`).
 * Paged routes give the next page's cursor in `X-Next-Cursor` and a `Link: rel="next"`, so the
 * body stays the CLI's value. Nothing here decides anything about sessions.
 * @module
 */
import type { Context, Hono } from "hono";
import { ApiFailure } from "../http-error.ts";
import { CONTEXT_FORMATS, sessionContext } from "../../query/context.ts";
import { sessionEntries } from "../../query/entries.ts";
import { sessionInfo } from "../../query/info.ts";
import { LIST_SORTS, type ListOptions, listSessions } from "../../query/list.ts";
import { listedJson, planListing } from "../../query/list-pages.ts";
import { sessionTree } from "../../query/tree.ts";
import { TREE_FILTERS, type TreeFilter } from "../../render/tree-rows.ts";
import { fileSessions } from "../../query/files.ts";
import { searchText } from "../../query/search.ts";
import { STATS_BY, type StatsBy, usageStats } from "../../query/stats.ts";
import { isSafeEntryRef, isSafeRef } from "../security.ts";
import type { ServeState } from "../serve-state.ts";
import { openApiDocument } from "./openapi.ts";
import { arrayItemJson, prettyJson } from "./pretty-json.ts";
import { collectGarbage } from "../../io/collect-garbage.ts";
import { GarbagePacer } from "../../io/garbage-pacer.ts";
import { versioned } from "../../query/json-version.ts";
import { PackedPaths } from "../../core/intern/packed-paths.ts";

/** Entries per page when `limit` is not given, and the most one page may hold. */
export const ENTRIES_PAGE = 200;
export const ENTRIES_MAX = 2000;
/** A page ends early once its lines hold this many bytes (long tool outputs): its cursor goes on. */
export const ENTRIES_MAX_BYTES = 1024 * 1024;

function json(value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value, null, 2) + "\n", {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/** Headers that point at the next page, when there is one. */
function nextHeaders(c: Context, cursor: string | null, param = "cursor"): Record<string, string> {
  if (cursor === null) return {};
  const url = new URL(c.req.url);
  url.searchParams.set(param, cursor);
  return { "X-Next-Cursor": cursor, Link: `<${url.pathname}${url.search}>; rel="next"`, "Access-Control-Expose-Headers": "X-Next-Cursor, Link" };
}

/** The session reference of the path; anything but an id or id prefix names nothing. */
export function refParam(c: Context): string {
  const ref = c.req.param("ref") ?? "";
  if (!isSafeRef(ref)) throw new ApiFailure(404, "no-session", `No session found matching "${ref}"`, "Use a session id or a unique prefix of one, as /api/sessions lists them");
  return ref;
}

/** A session reference from the query string (`session`), checked as a path's is. */
function sessionParam(c: Context): string | undefined {
  const value = c.req.query("session");
  if (value === undefined || value === "") return undefined;
  if (!isSafeRef(value)) throw new ApiFailure(404, "no-session", `No session found matching "${value}"`, "Use a session id or a unique prefix of one, as /api/sessions lists them");
  return value;
}

/** An entry reference from the query string (`leaf`, `after`), checked the same way. */
function entryParam(c: Context, name: string): string | undefined {
  const value = c.req.query(name);
  if (value === undefined || value === "") return undefined;
  if (!isSafeEntryRef(value)) throw new ApiFailure(404, "entry-not-found", `Entry "${value}" not found`, "Use an entry id, a unique prefix of one, or label:NAME");
  return value;
}

/** A whole number in [1, max], or undefined when absent. */
function limitParam(c: Context, max = Infinity): number | undefined {
  const raw = c.req.query("limit");
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new ApiFailure(400, "bad-option", `limit must be a whole number from 1${max === Infinity ? " up" : ` to ${max}`}, not "${raw}"`, "Pass e.g. limit=50");
  }
  return n;
}

function choiceParam(c: Context, name: string, choices: readonly string[]): string | undefined {
  const value = c.req.query(name);
  if (value === undefined || value === "") return undefined;
  if (!choices.includes(value)) throw new ApiFailure(400, "bad-option", `${name} must be one of ${choices.join(", ")}, not "${value}"`, `Pass e.g. ${name}=${choices[0]}`);
  return value;
}

function flagParam(c: Context, name: string): boolean {
  const value = c.req.query(name);
  return value !== undefined && value !== "0" && value !== "false";
}

function requiredParam(c: Context, name: string, example: string): string {
  const value = c.req.query(name);
  if (value === undefined || value.trim() === "") throw new ApiFailure(400, "missing-parameter", `The ${name} parameter is required`, `Pass e.g. ${name}=${example}`);
  return value;
}


/**
 * A computed answer: the body as sent (masked, serialized, in UTF-8: half what a string of it
 * weighs once one character needs two bytes, and sent as it is kept) and the next page's cursor.
 */
interface Answer {
  body: Blob;
  next: string | null;
}

/**
 * `value`, once what computing it left (a whole session's entries, the tree's rows) is
 * collected: its text is then written into the memory they held, not beside it.
 */
function afterCollecting<T>(value: T): T {
  collectGarbage();
  return value;
}

/** A listing of more sessions than this is sent as it is read, not built (nor kept) whole. */
export const STREAMED_LIST = 500;
/** Sessions read from the catalog per part of a streamed listing. */
const LIST_SLICE = 500;
/** Parts of a streamed listing between two collections of what they left. */
const COLLECT_SLICES = 4;

/** A listing as kept between requests: its body, or (a long one) the paths to read it from, packed. */
interface ListAnswer {
  body: Blob | null;
  paths: PackedPaths;
  next: string | null;
}

/**
 * `/api/sessions`: planned without holding every session (list-pages.ts). A long listing's
 * paths are kept until the next change and its body streamed, a slice of sessions at a time;
 * a short one's body is kept, as other answers are. The body is `list --json`'s to the byte.
 */
async function listAnswer(c: Context, state: ServeState, cwd: string | undefined, options: ListOptions): Promise<Response> {
  const env = () => state.env(cwd);
  const { body, paths, next } = await state.cached<ListAnswer>(`api list ${cwd ?? ""} ${JSON.stringify(options)}`, async () => {
    const plan = await planListing(env(), options);
    const whole = (value: unknown, next: string | null) => ({ body: new Blob([prettyJson(value, state.present) + "\n"]), paths: new PackedPaths([]), next });
    if (plan === undefined) {
      const page = await listSessions(env(), options);
      return whole(page.value, page.nextCursor);
    }
    if (plan.paths.length <= (state.config.listStream?.from ?? STREAMED_LIST)) return whole(await listedJson(env(), plan.paths), plan.nextCursor);
    return { body: null, paths: new PackedPaths(plan.paths), next: plan.nextCursor };
  }, (answer) => answer.body?.size ?? answer.paths.weight);
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...nextHeaders(c, next) };
  if (body) return new Response(body, { headers });
  const encoder = new TextEncoder();
  let at = 0;
  let written = 0;
  const slices = new GarbagePacer({ everyItems: COLLECT_SLICES });
  // The server is busy until the last slice is sent (or the client went away): background work
  // (the full-text index) waits, rather than add its memory to the slices'.
  const ended = state.answering();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("["));
    },
    async pull(controller) {
      if (at >= paths.length) {
        controller.enqueue(encoder.encode(written > 0 ? "\n]\n" : "]\n"));
        controller.close();
        ended();
        // What the slices left is given back before the next request.
        collectGarbage();
        return;
      }
      const slice = paths.slice(at, at += state.config.listStream?.slice ?? LIST_SLICE);
      let text = "";
      for (const item of await listedJson(env(), slice)) text += `${written++ > 0 ? "," : ""}\n  ${arrayItemJson(item, state.present)}`;
      controller.enqueue(encoder.encode(text));
      // Each slice leaves its records, infos and text behind, which Bun let pile up (50 MB over
      // 25,000 sessions; young collections did not take them): collected every few slices.
      slices.item();
    },
    cancel() {
      ended();
    },
  });
  return new Response(stream, { headers });
}

/** Registers the API routes on `app`. */
export function apiRoutes(app: Hono, state: ServeState): void {
  /**
   * Answers with the query's value, masked and serialized once per distinct request until the
   * next session change (`state.cached`); the key is the route and its checked options.
   */
  const answer = async (c: Context, route: string, options: object, compute: () => Promise<{ value: unknown; next?: string | null }>, param = "cursor") => {
    const { body, next } = await state.cached<Answer>(`api ${route} ${JSON.stringify(options)}`, async () => {
      const { value, next = null } = await compute();
      return { body: new Blob([prettyJson(value, state.present) + "\n"]), next };
    }, (answer) => answer.body.size);
    return new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...nextHeaders(c, next, param) } });
  };

  app.get("/api/openapi.json", () => json(openApiDocument(state.config.version)));

  app.get("/api/sessions", (c) => {
    const cwd = c.req.query("cwd") || undefined;
    const options = {
      all: cwd === undefined,
      sort: choiceParam(c, "sort", LIST_SORTS) as (typeof LIST_SORTS)[number] | undefined,
      named: flagParam(c, "named"),
      search: c.req.query("q") || undefined,
      since: c.req.query("since") || undefined,
      until: c.req.query("until") || undefined,
      model: c.req.query("model") || undefined,
      tz: c.req.query("tz") || undefined,
      limit: limitParam(c),
      cursor: c.req.query("cursor") || undefined,
    };
    return listAnswer(c, state, cwd, options);
  });

  app.get("/api/sessions/:ref", (c) => {
    const options = { ref: refParam(c) };
    return answer(c, "info", options, () => state.oneSessionAtATime(async () => afterCollecting({ value: versioned((await sessionInfo(state.env(), options)).value) })));
  });

  app.get("/api/sessions/:ref/tree", (c) => {
    const options = { ref: refParam(c), filter: choiceParam(c, "filter", TREE_FILTERS) as TreeFilter | undefined };
    return answer(c, "tree", options, () => state.oneSessionAtATime(async () => afterCollecting({ value: versioned((await sessionTree(state.env(), options)).value) })));
  });

  app.get("/api/sessions/:ref/entries", (c) => {
    const options = { ref: refParam(c), after: entryParam(c, "after"), limit: limitParam(c, ENTRIES_MAX) ?? ENTRIES_PAGE, maxBytes: ENTRIES_MAX_BYTES };
    return answer(c, "entries", options, () =>
      state.oneSessionAtATime(async () => {
        const { value } = await sessionEntries(state.env(), options);
        return { value: versioned(value), next: value.nextAfter };
      }), "after");
  });

  // pi's own shapes: no schemaVersion, as `context` prints them.
  app.get("/api/sessions/:ref/context", (c) => {
    const options = { ref: refParam(c), leaf: entryParam(c, "leaf"), format: choiceParam(c, "format", CONTEXT_FORMATS) as (typeof CONTEXT_FORMATS)[number] | undefined };
    return answer(c, "context", options, () => state.oneSessionAtATime(async () => ({ value: (await sessionContext(state.env(), options)).value })));
  });

  app.get("/api/search", (c) => {
    const options = {
      query: requiredParam(c, "q", "parser"),
      all: true,
      session: sessionParam(c),
      limit: limitParam(c),
      roles: c.req.query("role") || undefined,
      regex: flagParam(c, "regex"),
      ignoreCase: flagParam(c, "ignoreCase"),
      thinking: flagParam(c, "thinking"),
      since: c.req.query("since") || undefined,
      until: c.req.query("until") || undefined,
      tz: c.req.query("tz") || undefined,
    };
    return answer(c, "search", options, async () => ({ value: versioned((await searchText(state.searchEnv(), options)).value) }));
  });

  app.get("/api/stats", (c) => {
    const options = {
      all: true,
      by: choiceParam(c, "by", STATS_BY) as StatsBy | undefined,
      since: c.req.query("since") || undefined,
      until: c.req.query("until") || undefined,
      tz: c.req.query("tz") || undefined,
      breakdown: flagParam(c, "breakdown"),
    };
    return answer(c, "stats", options, async () => ({ value: versioned((await usageStats(state.env(), options)).value) }));
  });

  app.get("/api/files", (c) => {
    const options = { path: requiredParam(c, "path", "src/main.ts"), all: true };
    return answer(c, "files", options, async () => ({ value: versioned((await fileSessions(state.env(), options)).value) }));
  });
}
