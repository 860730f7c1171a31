/**
 * The session and context pages' second script: messages' text as the export viewer renders it
 * (its own `renderMarkdown`: marked and highlight.js, raw HTML shown as text, only safe links and
 * inline raster images). The server sends the text plain, readable at once; this upgrades each
 * user and assistant text in place, and those the page adds later (paging, live appends).
 * @module
 */
import { trustedMarkup } from "../../../export/html/viewer/dom.ts";
import { renderMarkdown } from "../../../export/html/viewer/markdown.ts";

/** Texts longer than this stay plain: parsing megabytes would stall the page. */
const MARKDOWN_LIMIT = 200_000;
const SELECTOR = ".entry.kind-user > .text, .entry.kind-assistant > .text, details.thinking > .text";

function upgrade(text: HTMLElement): void {
  const source = text.textContent ?? "";
  if (source.length > MARKDOWN_LIMIT || text.classList.contains("md")) return;
  const rendered = document.createElement("div");
  rendered.className = "text md";
  rendered.appendChild(trustedMarkup(renderMarkdown(source)));
  text.replaceWith(rendered);
}

function upgradeIn(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>(SELECTOR).forEach(upgrade);
}

upgradeIn(document);
const entries = document.getElementById("entries");
if (entries) {
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of Array.from(change.addedNodes)) if (node instanceof Element) upgradeIn(node);
  }).observe(entries, { childList: true });
}
document.body.dataset.markdown = "true";
