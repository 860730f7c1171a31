/**
 * "Which sessions touched this path": a form, then each session with the entries that read,
 * wrote or ran commands on it, each linking to the entry.
 * @module
 */
import { html, type Raw, urlPart } from "../html.ts";
import { shortTime } from "./format.ts";
import type { FilesItem } from "./values.ts";

export function filesView(path: string, items: readonly FilesItem[] | null): Raw {
  const form = html`<h1>Files</h1><form class="filters" method="get" action="/files"><label>Path <input name="path" type="search" value="${path}" placeholder="src/main.ts" autocomplete="off"></label> <button type="submit">Find sessions</button></form>`;
  if (items === null) return form;
  if (items.length === 0) return html`${form}<p class="empty">No session touched ${path}.</p>`;
  const sessions = items.map((item) => {
    const refs = item.refs.map((ref) =>
      html`<li><a href="/sessions/${urlPart(item.id)}${ref.entryId === null ? "" : `#entry-${urlPart(ref.entryId)}`}"><span class="op op-${ref.op.replace(/[^a-z]/g, "")}">${ref.op}</span> ${ref.tool} <code>${ref.command ?? ref.path}</code> <time>${shortTime(ref.timestamp)}</time></a></li>`
    );
    return html`<li class="files-session"><a href="/sessions/${urlPart(item.id)}">${item.name ?? item.id.slice(0, 8)}</a> <span class="cwd">${item.cwd}</span><ul>${refs}</ul></li>`;
  });
  return html`${form}<ul class="files">${sessions}</ul>`;
}
