/**
 * A session page's parts: the facts, the tree (every branch; the shown one marked), and the
 * entries of the shown branch as blocks (each `#entry-<id>`, linking to its model context).
 * Rendered on the server for the first paint and in the browser for pages and live appends.
 * @module
 */
import type { SessionEntry } from "../../../core/format/types.ts";
import { entryBlock, type Part } from "../../../render/transcript.ts";
import { html, type Raw, urlPart } from "../html.ts";
import { count, dollars, shortTime } from "./format.ts";
import type { InfoValue, TreeValue } from "./values.ts";

/** Tool output and thinking longer than this start folded. */
const FOLD_AT = 1200;

function partView(part: Part): Raw {
  switch (part.kind) {
    case "text":
      return html`<div class="text">${part.text}</div>`;
    case "thinking":
      return html`<details class="thinking"><summary>thinking</summary><div class="text">${part.text}</div></details>`;
    case "call":
      return html`<div class="call"><span class="tool">${part.name}</span> <code>${JSON.stringify(part.args)}</code></div>`;
    case "output":
      return part.text.length > FOLD_AT
        ? html`<details class="output"><summary>${part.text.slice(0, 200)}…</summary><pre>${part.text}</pre></details>`
        : html`<pre class="output">${part.text}</pre>`;
    case "quote":
      return html`<blockquote class="text">${part.text}</blockquote>`;
    default:
      return html`<div class="${part.kind}">${part.text}</div>`;
  }
}

/** One entry as a block of the transcript. */
export function entryView(sessionId: string, entry: SessionEntry): Raw {
  const block = entryBlock(entry, { usage: true, thinking: true });
  const id = String(entry.id);
  const role = (entry as { message?: { role?: unknown } }).message?.role;
  const kind = typeof role === "string" ? role : String(entry.type);
  const context = `/sessions/${urlPart(sessionId)}/context?leaf=${urlPart(id)}`;
  const body = block === null ? html`` : block.line !== undefined && block.parts.length === 0 ? html`<div class="line">${block.line}</div>` : html`${block.parts.map(partView)}`;
  // Custom messages pi keeps out of its display (display: false), hidden until asked for, as in the viewer.
  const shown = (entry as { display?: unknown }).display ?? (entry as { message?: { display?: unknown } }).message?.display;
  const hidden = shown === false && (entry.type === "custom_message" || role === "custom") ? " hidden-message" : "";
  return html`<article class="entry kind-${kind.replace(/[^A-Za-z0-9_-]/g, "")}${hidden}" id="entry-${id}" data-id="${id}" data-parent="${entry.parentId ?? ""}"><header><span class="who">${block?.title ?? kind}</span>${block?.label ? html` <span class="label">${block.label}</span>` : ""} <time>${block?.time ?? ""}</time> <a class="ctx" href="${context}" title="The model context at this entry">context</a> <a class="anchor" href="#entry-${urlPart(id)}">#</a></header>${body}</article>`;
}

export function entriesView(sessionId: string, entries: readonly SessionEntry[]): Raw {
  return html`${entries.map((e) => entryView(sessionId, e))}`;
}

/** The session's facts (the items of a <dl>): folder, dates, counts, tokens and cost (all branches). */
export function factsView(info: InfoValue): Raw {
  const fact = (term: string, value: string | Raw) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`;
  return html`${fact("Id", html`<code>${info.id}</code>`)}${fact("Folder", info.cwd)}${fact("Started", shortTime(info.created))}${
    fact("Last activity", shortTime(info.modified))
  }${fact("Entries", `${count(info.entryCount)} · ${count(info.leafCount)} branches`)}${fact("Tokens", count(info.usage.totalTokens))}${fact("Cost", dollars(info.usage.cost.total))}`;
}

/** The tree: each row links to its branch (`?leaf=`) scrolled to the entry. */
export function treeView(sessionId: string, tree: TreeValue, shownLeaf: string | null, onBranch: ReadonlySet<string>): Raw {
  const rows = tree.rows.map((row) => {
    const classes = ["tree-row", onBranch.has(row.id) ? "on-branch" : "", row.id === shownLeaf ? "leaf" : "", row.active ? "active" : "", `d${Math.min(row.depth, 30)}`].filter(Boolean).join(" ");
    const href = `/sessions/${urlPart(sessionId)}?leaf=${urlPart(row.id)}#entry-${urlPart(row.id)}`;
    return html`<li class="${classes}" data-id="${row.id}"><a href="${href}">${row.label ? html`<span class="label">${row.label}</span> ` : ""}${row.text}</a></li>`;
  });
  return html`<ol class="tree">${rows}</ol>`;
}
