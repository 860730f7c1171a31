/**
 * The web app's pages, each at a stable URL and rendered complete on the server (a link opened
 * cold shows the right thing at once): `/` sessions, `/sessions/<id>` a session
 * (`?leaf=` a branch, `#entry-<id>` an entry), `/sessions/<id>/context?leaf=`, `/stats`,
 * `/files?path=`. The data come from the same queries as the API; the script only adds.
 * @module
 */
import type { Context, Hono } from "hono";
import { ApiFailure, describeApiError } from "../http-error.ts";
import { sessionContext } from "../../query/context.ts";
import { readHeader } from "../../session/read-header.ts";
import { listSessions, type ListSort } from "../../query/list.ts";
import { openExportSource } from "../../export/export-source.ts";
import { jsonlExport } from "../../export/jsonl-export.ts";
import { branchPage } from "../../query/branch-page.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";
import { sessionTree } from "../../query/tree.ts";
import { TREE_FILTERS, type TreeFilter } from "../../render/tree-rows.ts";
import { fileSessions } from "../../query/files.ts";
import { searchText } from "../../query/search.ts";
import { usageStats } from "../../query/stats.ts";
import { isSafeEntryRef, isSafeRef } from "../security.ts";
import type { ServeState } from "../serve-state.ts";
import { html, type Raw } from "./html.ts";
import { pageHtml, pagePolicy, type PageOptions } from "./layout.ts";
import { type ContextValue, contextView } from "./views/context-view.ts";
import { filesView } from "./views/files-view.ts";
import { hitRows, sessionRows } from "./views/session-list.ts";
import { entriesView, treeView } from "./views/session-view.ts";
import { chartData, statsView } from "./views/stats-view.ts";
import type { FilesItem, ListedSession, SearchHit, StatsValue } from "./views/values.ts";

/** Sessions on the first paint of `/`, and entries on a session page's. */
const FIRST_SESSIONS = 50;
const FIRST_ENTRIES = 100;
/** Sessions up to this size get their tree in the first paint; bigger ones load it after. */
const TREE_INLINE_BYTES = 8 * 1024 * 1024;

const SORTS = ["modified", "created", "name", "messages", "size"];

async function page(state: ServeState, options: Omit<PageOptions, "version">, status = 200): Promise<Response> {
  return new Response(pageHtml({ ...options, version: state.config.version }), {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": await pagePolicy(options.markdown), "Cache-Control": "no-store" },
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
  if (!isSafeRef(ref)) throw new ApiFailure(404, "no-session", `No session found matching "${ref}"`, "Pick a session from the list");
  return ref;
}

/** A day from a date field (`YYYY-MM-DD`), or undefined when empty; anything else is the API's 400. */
function dateParam(c: Context, name: string): string | undefined {
  const value = c.req.query(name)?.trim();
  return value ? value : undefined;
}

function leafParam(c: Context, name = "leaf"): string | undefined {
  const leaf = c.req.query(name);
  if (leaf === undefined || leaf === "") return undefined;
  if (!isSafeEntryRef(leaf)) throw new ApiFailure(404, "entry-not-found", `Entry "${leaf}" not found`, "Pick an entry in the session's tree");
  return leaf;
}

export function webRoutes(app: Hono, state: ServeState): void {
  app.get("/", guarded(state, "sessions", async (c) => {
    const q = c.req.query("q")?.trim() ?? "";
    const cwd = c.req.query("cwd") || undefined;
    const sort = SORTS.includes(c.req.query("sort") ?? "") ? c.req.query("sort") : undefined;
    const named = c.req.query("named") === "1";
    const since = dateParam(c, "since");
    const until = dateParam(c, "until");
    const model = c.req.query("model")?.trim() || undefined;
    let rows: Raw;
    let next: string | null = null;
    if (q) {
      // Search as you type: the index's hits, within the date range when one is set.
      rows = hitRows(state.present((await searchText(state.searchEnv(), { query: q, all: true, since, until, limit: 50 })).value) as SearchHit[]);
    } else {
      const options = { all: cwd === undefined, sort: sort as ListSort | undefined, named, since, until, model, limit: FIRST_SESSIONS };
      const listed = await state.cached(`page list ${cwd ?? ""} ${JSON.stringify(options)}`, () => listSessions(state.env(cwd), options));
      rows = sessionRows(state.present(listed.value) as ListedSession[]);
      next = listed.nextCursor;
    }
    // Every project, for the filter (the full listing is the catalog's, cached like the page).
    const everything = await state.cached(`page list-all ${JSON.stringify({ all: true })}`, () => listSessions(state.env(), { all: true }));
    const projects = [...new Set(everything.value.map((s) => s.cwd))].sort();
    const project = html`<select name="cwd" aria-label="Project"><option value="">All projects</option>${
      projects.map((p) => html`<option value="${p}"${p === cwd ? html` selected` : ""}>${p}</option>`)
    }</select>`;
    const option = (value: string, label: string) => html`<option value="${value}"${(sort ?? "modified") === value ? html` selected` : ""}>${label}</option>`;
    // The model field is free text (a part of provider/model, as list --model takes it); the script
    // offers the models of the stats as choices once the page is shown, so the first paint waits for none.
    const body = html`<h1>Sessions</h1><form class="filters" id="filters" method="get" action="/"><input id="q" name="q" type="search" value="${q}" placeholder="Search every session…" autocomplete="off" aria-label="Search"><select name="sort" aria-label="Sort">${
      option("modified", "Last active")
    }${option("created", "Created")}${option("name", "Name")}${option("messages", "Messages")}${option("size", "Size")}</select>${project}<input name="model" id="model" type="search" list="models" value="${model ?? ""}" placeholder="Model" autocomplete="off" aria-label="Model"><datalist id="models"></datalist><span class="range"><label>from <input type="date" name="since" value="${since ?? ""}"></label><label>until <input type="date" name="until" value="${
      until ?? ""
    }"></label></span><label><input type="checkbox" name="named" value="1"${named ? html` checked` : ""}> named</label><button type="submit">Apply</button></form><ol class="rows" id="rows">${rows}</ol><button class="more" id="more" type="button"${next === null ? html` hidden` : ""}>More</button>`;
    return page(state, { title: "Sessions", page: "sessions", section: "sessions", body, data: { next } });
  }));

  app.get("/sessions/:ref", guarded(state, "sessions", async (c) => {
    const ref = sessionRef(c);
    const leaf = leafParam(c);
    // `from`: the page starts at that entry of the branch (a jump far down a long one).
    const from = leafParam(c, "from");
    const filter = (TREE_FILTERS as readonly string[]).includes(c.req.query("filter") ?? "") ? c.req.query("filter") as TreeFilter : "default";
    const env = state.env();
    // The branch's first entries from a light pass over the file: a 90 MB session shows at once.
    const branch = await state.cached(`page branch ${JSON.stringify({ ref, leaf, from })}`, () => branchPage(env, { ref, leaf, from, limit: FIRST_ENTRIES }));
    const id = branch.id;
    const onBranch = new Set(branch.branch);
    // The tree needs the whole file read: drawn here for a session of ordinary size, else fetched by the page.
    const tree = branch.size <= TREE_INLINE_BYTES ? await state.cached(`page tree ${JSON.stringify({ ref: id, filter })}`, () => state.oneSessionAtATime(async () => (await sessionTree(env, { ref: id, filter })).value)) : null;
    const title = state.present(branch.name ?? `Session ${id}`);
    const command = state.present(`pi --session ${branch.path}`);
    const here = (f: string, start?: string) =>
      `/sessions/${encodeURIComponent(id)}?${new URLSearchParams({ ...(leaf ? { leaf } : {}), ...(f !== "default" ? { filter: f } : {}), ...(start ? { from: start } : {}) })}`;
    const shown = branch.start + branch.entries.length;
    const last = branch.branch.at(-1);
    // The branch's end without loading what comes before it; and the entries before a page that starts further down.
    const end = last && shown < branch.branch.length ? html`<a href="${here(filter, branch.branch[Math.max(0, branch.branch.length - FIRST_ENTRIES)])}#entry-${encodeURIComponent(last)}">Jump to end</a>` : "";
    const earlier = branch.start > 0
      ? html`<p class="notes" id="earlier"><a href="${here(filter, branch.branch[Math.max(0, branch.start - FIRST_ENTRIES)])}">${branch.start} earlier entries</a> · <a href="${here(filter)}">from the start</a></p>`
      : "";
    const filters = html`<nav class="tree-filters" aria-label="Tree filter">${TREE_FILTERS.map((f) => html`<a href="${here(f)}"${f === filter ? html` aria-current="true"` : ""}>${f}</a>`)}</nav>`;
    const body = html`<div class="session"><aside class="side">${filters}<div class="tree-box" id="tree-box">${
      tree ? treeView(id, state.present(tree), branch.leafId, onBranch) : html`<p class="notes">Loading the tree…</p>`
    }</div></aside><section><h1>${title}</h1><dl class="facts" id="facts"></dl><div class="toolbar"><code class="command" id="command" title="Resume in pi (click to copy)">${command}</code><a href="/sessions/${
      encodeURIComponent(id)
    }/context${branch.leafId ? `?leaf=${encodeURIComponent(branch.leafId)}` : ""}">Context at the end</a>${leaf ? html`<a href="/sessions/${encodeURIComponent(id)}">Newest branch</a>` : ""}${end}<a href="/sessions/${encodeURIComponent(id)}/session.jsonl" download>Download JSONL</a><button class="toggle" type="button" data-toggle="thinking" aria-pressed="false" title="Open every thinking block" hidden>Thinking</button><button class="toggle" type="button" data-toggle="output" aria-pressed="false" title="Open every long tool output" hidden>Tool output</button><button class="toggle" type="button" data-toggle="hidden" aria-pressed="false" title="Show the custom messages pi does not display" hidden>Hidden messages</button><a href="/api/sessions/${encodeURIComponent(id)}/entries?limit=2000">JSON</a></div>${earlier}<div id="entries">${
      entriesView(id, state.present(branch.entries))
    }</div><button class="more" id="more-entries" type="button"${shown === branch.branch.length ? html` hidden` : ""}>More entries</button></section></div>`;
    return page(state, {
      title,
      page: "session",
      section: "sessions",
      body,
      markdown: true,
      data: {
        sessionId: id,
        follow: leaf === undefined,
        // The branch's ids, for picking its entries out of the file-order pages the API gives.
        branch: branch.branch,
        // Entries shown from the branch's start (those before `start` are left to the link above them).
        start: branch.start,
        shown,
        treeLoaded: tree !== null,
        filter,
      },
    });
  }));

  // The whole session as JSONL (pi's /export format: re-importable), masked like everything served.
  app.get("/sessions/:ref/session.jsonl", guarded(state, "sessions", async (c) => {
    const env = state.env();
    const path = await resolveSessionRef(env, sessionRef(c));
    const source = await openExportSource(env.fs, path);
    const lines = jsonlExport({ source, keep: new Set(source.tree.entries), leafId: source.tree.leafId, allBranches: true, redactor: state.redactor(), now: env.now() })[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await lines.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      },
      cancel: () => void lines.return?.(),
    });
    return new Response(body, {
      headers: {
        "Content-Type": "application/jsonl; charset=utf-8",
        "Content-Disposition": `attachment; filename="${source.header.id.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl"`,
        "Cache-Control": "no-store",
      },
    });
  }));

  app.get("/sessions/:ref/context", guarded(state, "sessions", async (c) => {
    const ref = sessionRef(c);
    const leaf = leafParam(c);
    const context = await state.oneSessionAtATime(() => sessionContext(state.env(), { ref, leaf, format: "json" }));
    const value = state.present(context.value) as ContextValue;
    const id = (await readHeader(state.env().fs, context.path))?.id ?? ref;
    return page(state, { title: "Model context", page: "context", section: "sessions", body: contextView(id, leaf ?? null, value), markdown: true });
  }));

  app.get("/stats", guarded(state, "stats", async () => {
    const env = state.env();
    const [byDay, byProject, bySession, byModel] = await Promise.all(
      (["day", "project", "session", "model"] as const).map((by) => state.cached(`page stats ${by}`, async () => (await usageStats(env, { all: true, by, breakdown: by === "day" })).value as StatsValue)),
    );
    return page(state, { title: "Stats", page: "stats", section: "stats", body: statsView(byDay, state.present(byProject), bySession, byModel), data: { chart: chartData(byDay) } });
  }));

  app.get("/files", guarded(state, "files", async (c) => {
    const path = c.req.query("path")?.trim() ?? "";
    const items = path ? state.present((await fileSessions(state.env(), { path, all: true })).value) as FilesItem[] : null;
    return page(state, { title: path ? `Files: ${path}` : "Files", page: "files", section: "files", body: filesView(path, items) });
  }));
}
