/**
 * The frame of every page: a strict Content-Security-Policy (our scripts, the pages' one and the
 * markdown one of the pages that show messages, and our one style, pinned by SHA-256; fetches only to this origin), the navigation, the content rendered by
 * the server, and the page's data for the browser script as inert JSON.
 * @module
 */
import { CLIENT_JS, MARKDOWN_JS } from "./client-bundle.ts";
import { html, type Raw, raw } from "./html.ts";
import { APP_CSS } from "./style.ts";

const encoder = new TextEncoder();

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return btoa(String.fromCharCode(...digest));
}

const policies = new Map<boolean, Promise<string>>();

/** The pages' Content-Security-Policy; `markdown`: the page also runs the markdown script. */
export function pagePolicy(markdown = false): Promise<string> {
  let policy = policies.get(markdown);
  if (!policy) {
    policy = (async () =>
      [
        "default-src 'none'",
        `script-src 'sha256-${await sha256(CLIENT_JS)}'${markdown ? ` 'sha256-${await sha256(MARKDOWN_JS)}'` : ""}`,
        `style-src 'sha256-${await sha256(APP_CSS)}'`,
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
      ].join("; "))();
    policies.set(markdown, policy);
  }
  return policy;
}

export interface PageOptions {
  title: string;
  /** Which page the script wires up: sessions, session, context, stats, files. */
  page: string;
  /** The nav entry to mark. */
  section: "sessions" | "stats" | "files";
  body: Raw;
  /** Data for the browser script. */
  data?: unknown;
  /** Messages on the page: add the script that renders their markdown as the export viewer does. */
  markdown?: boolean;
  version: string;
}

/** JSON that can sit inside a <script> element: no `<` to end it early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value ?? null).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** A whole page. */
export function pageHtml(options: PageOptions): string {
  const nav = (section: PageOptions["section"], href: string, label: string) =>
    html`<a href="${href}"${options.section === section ? raw(' aria-current="page"') : ""}>${label}</a>`;
  return "<!DOCTYPE html>\n" + html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>${options.title} · pi-session</title><style>${
    raw(APP_CSS)
  }</style></head><body data-page="${options.page}"><header class="top"><a class="brand" href="/">pi-session</a><nav>${nav("sessions", "/", "Sessions")}${nav("stats", "/stats", "Stats")}${
    nav("files", "/files", "Files")
  }</nav><span class="live" id="live" title="Live updates">●</span></header><main id="main">${options.body}</main><footer>${options.version}</footer><script type="application/json" id="page-data">${
    raw(scriptJson(options.data))
  }</script><script>${raw(CLIENT_JS)}</script>${options.markdown ? raw(`<script>${MARKDOWN_JS}</script>`) : ""}</body></html>`.html;
}
