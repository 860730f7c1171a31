/**
 * The web app's pages, each at a stable URL and rendered complete on the server (a link opened
 * cold shows the right thing at once): `/` sessions, `/sessions/<id>` a session
 * (`?leaf=` a branch, `#entry-<id>` an entry), `/sessions/<id>/context?leaf=`, `/stats`,
 * `/files?path=`. The data come from the same queries as the API; the script only adds.
 * @module
 */
import type { Context, Hono } from "hono";
import type { SessionEntry } from "../../core/format/types.ts";
import { ApiFailure, describeApiError } from "../http-error.ts";
import { contextValue, entriesPage, filesValue, infoValue, listPage, searchValue, statsValue, treeValue } from "../queries.ts";
import { isSafeEntryRef, isSafeRef } from "../security.ts";
import type { ServeState } from "../serve-state.ts";
import { html, type Raw } from "./html.ts";
import { pageHtml, pagePolicy, type PageOptions } from "./layout.ts";
import { type ContextValue, contextView } from "./views/context-view.ts";
import { filesView } from "./views/files-view.ts";
import { hitRows, sessionRows } from "./views/session-list.ts";
import { entriesView, factsView, treeView } from "./views/session-view.ts";
import { chartData, statsView } from "./views/stats-view.ts";
import type { FilesItem, InfoValue, ListedSession, SearchHit, StatsValue, TreeValue } from "./views/values.ts";

/** Sessions on the first paint of `/`, and entries on a session page's. */
const FIRST_SESSIONS = 50;
const FIRST_ENTRIES = 200;

const SORTS = ["modified", "created", "name", "messages", "size"];

async function page(state: ServeState, options: Omit<PageOptions, "version">, status = 200): Promise<Response> {
  return new Response(pageHtml({ ...options, version: state.config.version }), {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": await pagePolicy(), "Cache-Control": "no-store" },
  });
}

/** Runs a page handler; an error becomes a page saying what went wrong, with the API's status. */
function guarded(state: ServeState, section: PageOptions["section"], handler: (c: Context) => Promise<Response>) {
  return async (c: Context) => {
    try {
      return await handler(c);
    } catch (error) {
      const { status, body, bug } = describeApiError(error);
      if (bug) state.log(`internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      return page(state, { title: "Not shown", page: "error", section, body: html`<h1>${body.message}</h1><p class="notes">${body.hint}</p><p><a href="/">All sessions</a></p>` }, status);
    }
  };
}

function sessionRef(c: Context): string {
  const ref = c.req.param("ref") ?? "";
  if (!isSafeRef(ref)) throw new ApiFailure(404, "not-found", `No session found matching "${ref}"`, "Pick a session from the list");
  return ref;
}

function leafParam(c: Context): string | undefined {
  const leaf = c.req.query("leaf");
  if (leaf === undefined || leaf === "") return undefined;
  if (!isSafeEntryRef(leaf)) throw new ApiFailure(404, "entry-not-found", `Entry "${leaf}" not found`, "Pick an entry in the session's tree");
  return leaf;
}

/** The ids from `leaf` up to its root, as far as the tree's rows reach. */
function branchOf(tree: TreeValue, leaf: string | null): Set<string> {
  const parents = new Map(tree.rows.map((r) => [r.id, r.parentId]));
  const ids = new Set<string>();
  for (let id = leaf; id !== null && parents.has(id) && !ids.has(id); id = parents.get(id) ?? null) ids.add(id);
  return ids;
}

export function webRoutes(app: Hono, state: ServeState): void {
  app.get("/", guarded(state, "sessions", async (c) => {
    const q = c.req.query("q")?.trim() ?? "";
    const cwd = c.req.query("cwd") || undefined;
    const sort = SORTS.includes(c.req.query("sort") ?? "") ? c.req.query("sort") : undefined;
    const named = c.req.query("named") === "1";
    let rows: Raw;
    let next: string | null = null;
    if (q) {
      rows = hitRows(state.present(await searchValue(state.env(), { query: q, limit: 50 })) as SearchHit[]);
    } else {
      const listed = await listPage(state.env(cwd), { all: cwd === undefined, sort, named, limit: FIRST_SESSIONS });
      rows = sessionRows(state.present(listed.value) as ListedSession[]);
      next = listed.nextCursor;
    }
    const option = (value: string, label: string) => html`<option value="${value}"${(sort ?? "modified") === value ? html` selected` : ""}>${label}</option>`;
    const body = html`<h1>Sessions</h1><form class="filters" method="get" action="/"><input id="q" name="q" type="search" value="${q}" placeholder="Search every session…" autocomplete="off" aria-label="Search"><select name="sort" aria-label="Sort">${
      option("modified", "Last active")
    }${option("created", "Created")}${option("name", "Name")}${option("messages", "Messages")}${option("size", "Size")}</select><label><input type="checkbox" name="named" value="1"${named ? html` checked` : ""}> named</label>${
      cwd ? html`<input type="hidden" name="cwd" value="${cwd}"><a href="/">all projects</a>` : ""
    }<button type="submit">Apply</button></form><ol class="rows" id="rows">${rows}</ol><button class="more" id="more" type="button"${next === null ? html` hidden` : ""}>More</button>`;
    return page(state, { title: "Sessions", page: "sessions", section: "sessions", body, data: { next } });
  }));

  app.get("/sessions/:ref", guarded(state, "sessions", async (c) => {
    const ref = sessionRef(c);
    const leaf = leafParam(c);
    const env = state.env();
    const [info, tree, entries] = await Promise.all([
      infoValue(env, { ref }) as Promise<InfoValue>,
      treeValue(env, { ref }) as Promise<TreeValue>,
      entriesPage(env, { ref, leaf, limit: FIRST_ENTRIES }),
    ]);
    const shown = state.present(entries.value) as { leafId: string | null; entries: SessionEntry[] };
    const id = info.id;
    const command = `pi --session ${info.path}`;
    const body = html`<div class="session"><aside class="tree-box" id="tree-box">${treeView(id, state.present(tree), shown.leafId, branchOf(tree, shown.leafId))}</aside><section>${
      factsView(state.present(info))
    }<div class="toolbar"><code class="command" title="Resume in pi">${state.present(command)}</code><a href="/api/sessions/${encodeURIComponent(id)}/entries?limit=2000${leaf ? `&leaf=${encodeURIComponent(leaf)}` : ""}">JSON</a><a href="/sessions/${encodeURIComponent(id)}/context${
      shown.leafId ? `?leaf=${encodeURIComponent(shown.leafId)}` : ""
    }">Context at the end</a>${leaf ? html`<a href="/sessions/${encodeURIComponent(id)}">Newest branch</a>` : ""}</div><div id="entries">${entriesView(id, shown.entries)}</div><button class="more" id="more-entries" type="button"${
      entries.nextCursor === null ? html` hidden` : ""
    }>More entries</button></section></div>`;
    const lastId = shown.entries.at(-1)?.id ?? null;
    return page(state, {
      title: info.name ?? `Session ${id.slice(0, 8)}`,
      page: "session",
      section: "sessions",
      body,
      data: { sessionId: id, leaf: leaf ?? null, follow: leaf === undefined, next: entries.nextCursor, lastId },
    });
  }));

  app.get("/sessions/:ref/context", guarded(state, "sessions", async (c) => {
    const ref = sessionRef(c);
    const leaf = leafParam(c);
    const info = await infoValue(state.env(), { ref }) as InfoValue;
    const value = state.present(await contextValue(state.env(), { ref, leaf, format: "json" })) as ContextValue;
    return page(state, { title: "Model context", page: "context", section: "sessions", body: contextView(info.id, leaf ?? null, value) });
  }));

  app.get("/stats", guarded(state, "stats", async () => {
    const env = state.env();
    const [byDay, byProject, bySession, byModel] = await Promise.all(
      (["day", "project", "session", "model"] as const).map((by) => statsValue(env, { all: true, by, breakdown: by === "day" }) as Promise<StatsValue>),
    );
    return page(state, { title: "Stats", page: "stats", section: "stats", body: statsView(byDay, state.present(byProject), bySession, byModel), data: { chart: chartData(byDay) } });
  }));

  app.get("/files", guarded(state, "files", async (c) => {
    const path = c.req.query("path")?.trim() ?? "";
    const items = path ? state.present(await filesValue(state.env(), { path })) as FilesItem[] : null;
    return page(state, { title: path ? `Files: ${path}` : "Files", page: "files", section: "files", body: filesView(path, items) });
  }));
}
