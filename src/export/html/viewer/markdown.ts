/**
 * Markdown to safe HTML for the viewer: `marked` for the syntax, `highlight.js` for code.
 * Session text is untrusted, so raw HTML in it is shown as text, links keep only http(s),
 * mailto and in-page targets, and images only inline base64 rasters (no SVG, nothing
 * fetched). Pure: no DOM, so Node tests check the output text directly.
 * @module
 */
import { Marked, type Tokens } from "marked";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import plaintext from "highlight.js/lib/languages/plaintext";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = {
  bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, makefile, markdown, php,
  plaintext, python, ruby, rust, shell, sql, swift, typescript, xml, yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Longer code is shown plain: highlighting megabytes would stall the page. */
const HIGHLIGHT_LIMIT = 100_000;

/** Raster image types shown inline; SVG is left out on purpose (it is a document, not a picture). */
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/avif"];

const EXTENSIONS: Record<string, string> = {
  ts: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript", js: "javascript", jsx: "javascript", mjs: "javascript",
  cjs: "javascript", json: "json", jsonl: "json", py: "python", go: "go", rs: "rust", java: "java", kt: "kotlin", c: "c", h: "c",
  cc: "cpp", cpp: "cpp", hpp: "cpp", cs: "csharp", css: "css", scss: "css", html: "xml", xml: "xml", svg: "xml", yml: "yaml",
  yaml: "yaml", md: "markdown", sh: "bash", bash: "bash", zsh: "bash", sql: "sql", rb: "ruby", php: "php", swift: "swift",
  toml: "ini", ini: "ini", diff: "diff", patch: "diff", mk: "makefile",
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML text and quoted attribute values. */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The highlight.js language for a file path, or undefined. */
export function languageForPath(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  if (name === "dockerfile") return "dockerfile";
  if (name === "makefile") return "makefile";
  const dot = name.lastIndexOf(".");
  return dot < 0 ? undefined : EXTENSIONS[name.slice(dot + 1)];
}

/** Code as highlighted HTML (escaped plain text for unknown languages or very long code). */
export function highlightCode(code: string, language?: string): string {
  const lang = language?.toLowerCase();
  if (!lang || code.length > HIGHLIGHT_LIMIT || !hljs.getLanguage(lang)) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return escapeHtml(code);
  }
}

/**
 * The href to emit for a link, or null when it must not be a link. Browsers drop control
 * characters and whitespace inside a scheme (`java\tscript:`), so they are dropped first.
 */
export function safeHref(href: string): string | null {
  const cleaned = String(href).replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  if (cleaned === "") return null;
  // The href is written escaped, so `&#58;` stays text; still, refuse what would decode to a scheme.
  const decoded = cleaned.replace(/&#x0*3a;?|&#0*58;?|&colon;/gi, ":");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(decoded);
  if (scheme && !/^(?:https?|mailto)$/i.test(scheme[1])) return null;
  // A backslash start is read as a scheme-relative URL by browsers; `//host` leaves the file.
  if (!scheme && /^[/\\]{2}/.test(decoded)) return null;
  return cleaned;
}

/** True for `data:image/png;base64,…` (a raster type, base64 characters only). */
export function isInlineImage(src: string): boolean {
  const match = /^data:([a-z/+.-]+);base64,([A-Za-z0-9+/=\s]*)$/i.exec(src);
  return match !== null && IMAGE_TYPES.includes(match[1].toLowerCase());
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    // Raw HTML from the data is shown, never interpreted.
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    link(token: Tokens.Link): string {
      const inner = this.parser.parseInline(token.tokens);
      const href = safeHref(token.href);
      if (href === null) return inner;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      return `<a href="${escapeHtml(href)}"${title} rel="noopener noreferrer nofollow" target="_blank">${inner}</a>`;
    },
    image(token: Tokens.Image): string {
      const alt = escapeHtml(token.text ?? "");
      if (isInlineImage(token.href)) return `<img src="${escapeHtml(token.href.replace(/\s/g, ""))}" alt="${alt}">`;
      // Nothing is fetched: an image from elsewhere becomes a link to it.
      const href = safeHref(token.href);
      const label = `[image${alt ? `: ${alt}` : ""}]`;
      return href === null ? label : `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow" target="_blank">${label}</a>`;
    },
    code(token: Tokens.Code): string {
      const lang = (token.lang ?? "").match(/^\S*/)?.[0] ?? "";
      return `<pre><code class="hljs">${highlightCode(token.text, lang)}</code></pre>\n`;
    },
  },
});

/**
 * Markdown as HTML that is safe to assign to `innerHTML`.
 *
 * @example
 * ```ts
 * renderMarkdown("**hi** <script>x</script>"); // "<p><strong>hi</strong> &lt;script&gt;x&lt;/script&gt;</p>\n"
 * ```
 */
export function renderMarkdown(text: string): string {
  try {
    return marked.parse(String(text), { async: false });
  } catch {
    return `<pre>${escapeHtml(text)}</pre>`;
  }
}
