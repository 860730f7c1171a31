/**
 * The sessions page's rows and search hits, rendered the same on the server (first paint)
 * and in the browser (search as you type, live updates).
 * @module
 */
import { html, type Raw, urlPart } from "../html.ts";
import { count, shortCwd, shortTime } from "./format.ts";
import type { ListedSession, SearchHit } from "./values.ts";

/** One session as a row linking to its page. */
export function sessionRow(s: ListedSession): Raw {
  const title = s.name ?? (s.firstMessage || "(no messages)");
  return html`<li class="row" data-id="${s.id}"><a href="/sessions/${urlPart(s.id)}"><span class="title${s.name ? " named" : ""}">${title}</span><span class="meta"><span class="cwd" title="${s.cwd}">${shortCwd(s.cwd)}</span> · <span>${count(s.messageCount)} msgs</span> · <time datetime="${s.modified ?? ""}">${shortTime(s.modified)}</time> · <code>${s.id.slice(0, 8)}</code></span></a></li>`;
}

export function sessionRows(sessions: readonly ListedSession[]): Raw {
  if (sessions.length === 0) return html`<li class="empty">No sessions.</li>`;
  return html`${sessions.map(sessionRow)}`;
}

/** One search hit, linking to the entry in its session. */
export function hitRow(hit: SearchHit): Raw {
  const id = hit.sessionId ?? "";
  const href = `/sessions/${urlPart(id)}${hit.entryId ? `#entry-${urlPart(hit.entryId)}` : ""}`;
  return html`<li class="row hit"><a href="${href}"><span class="title">${hit.snippet}</span><span class="meta">${hit.name ?? id.slice(0, 8)} · <span class="cwd">${shortCwd(hit.cwd ?? "")}</span> · ${hit.role ?? ""} · <time>${shortTime(hit.timestamp)}</time></span></a></li>`;
}

export function hitRows(hits: readonly SearchHit[]): Raw {
  if (hits.length === 0) return html`<li class="empty">No matches.</li>`;
  return html`${hits.map(hitRow)}`;
}
