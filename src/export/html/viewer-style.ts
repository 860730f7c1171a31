/**
 * The viewer's stylesheet, inlined into every HTML export (its SHA-256 goes into the
 * Content-Security-Policy). Light and dark follow the reader's system setting.
 * @module
 */

/**
 * The sidebar's rules (search box, filter buttons, the virtual tree), shared with the serve
 * session page, which draws the same sidebar. It styles with the variables --side, --panel,
 * --text, --muted, --border, --accent, --label-bg, --label, --mono and --sans.
 */
export const SIDEBAR_CSS = `.sidebar { display: flex; flex-direction: column; min-height: 0; background: var(--side); border-right: 1px solid var(--border); }
.side-head { padding: 10px; border-bottom: 1px solid var(--border); display: grid; gap: 8px; }
.search { width: 100%; padding: 6px 9px; border: 1px solid var(--border); border-radius: 6px; background: var(--panel); color: var(--text); font: inherit; }
.filters { display: flex; flex-wrap: wrap; gap: 4px; }
.filter, .toggle, .more { border: 1px solid var(--border); background: var(--panel); color: var(--text); border-radius: 999px; padding: 2px 10px; font: 12px var(--sans); cursor: pointer; }
.filter.active, .toggle[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
.tree { flex: 1; overflow: auto; position: relative; min-height: 0; }
.tree-spacer { position: relative; }
.tree-row { position: absolute; left: 0; right: 0; height: 24px; line-height: 24px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
  font: 12px var(--mono); color: var(--muted); cursor: pointer; padding: 0 8px; }
.tree-row .guide { white-space: pre; color: var(--muted); opacity: .6; }
.tree-row:hover { background: color-mix(in srgb, var(--accent) 10%, transparent); }
.tree-row.on-path { color: var(--text); }
.tree-row.target { background: color-mix(in srgb, var(--accent) 22%, transparent); }
.tree-row .marker { display: inline-block; width: 12px; color: var(--accent); }
.tree-row.kind-user .row-text { color: var(--accent); }
.tree-row.kind-assistant .row-text { color: var(--text); }
.tree-row.kind-toolResult .row-text { color: var(--muted); }
.label { display: inline-block; background: var(--label-bg); color: var(--label); border-radius: 4px; padding: 0 6px; margin-right: 6px; font: 11px/18px var(--mono); }
.tree-status { padding: 6px 10px; border-top: 1px solid var(--border); color: var(--muted); font-size: 12px; }`;

/** Rendered markdown (`.md`) and its images, shared with the serve pages, which render messages alike. */
export const MARKDOWN_CSS = `.md { overflow-wrap: anywhere; }
.md > :first-child { margin-top: 0; }
.md > :last-child { margin-bottom: 0; }
.md p { margin: 6px 0; }
.md pre, pre.output { background: var(--code-bg); border: 1px solid var(--border); border-radius: 6px; padding: 8px 10px; overflow: auto; font: 12.5px/1.45 var(--mono); margin: 6px 0; max-height: 70vh; white-space: pre; }
.md code { font-family: var(--mono); font-size: 12.5px; background: var(--code-bg); padding: 1px 4px; border-radius: 4px; }
.md pre code { background: none; padding: 0; }
.md blockquote { margin: 6px 0; padding-left: 12px; border-left: 3px solid var(--border); color: var(--muted); }
.md table { border-collapse: collapse; }
.md th, .md td { border: 1px solid var(--border); padding: 3px 8px; }
.md a { color: var(--accent); }
img.image, .md img { max-width: 100%; border-radius: 6px; border: 1px solid var(--border); display: block; margin: 6px 0; }`;

/** highlight.js's token colours, light and dark, shared with the serve pages. */
export const HIGHLIGHT_CSS = `.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-type { color: #cf222e; }
.hljs-string, .hljs-attr, .hljs-regexp, .hljs-addition { color: #0a3069; }
.hljs-number, .hljs-literal, .hljs-symbol { color: #0550ae; }
.hljs-comment, .hljs-quote, .hljs-meta { color: #6e7781; font-style: italic; }
.hljs-title, .hljs-section, .hljs-function .hljs-title { color: #8250df; }
.hljs-variable, .hljs-template-variable, .hljs-params { color: #953800; }
.hljs-deletion { color: #82071e; background: #ffebe9; }
.hljs-addition { background: #dafbe1; }
@media (prefers-color-scheme: dark) {
  .hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-type { color: #ff7b72; }
  .hljs-string, .hljs-attr, .hljs-regexp, .hljs-addition { color: #a5d6ff; }
  .hljs-number, .hljs-literal, .hljs-symbol { color: #79c0ff; }
  .hljs-comment, .hljs-quote, .hljs-meta { color: #8b949e; }
  .hljs-title, .hljs-section, .hljs-function .hljs-title { color: #d2a8ff; }
  .hljs-variable, .hljs-template-variable, .hljs-params { color: #ffa657; }
  .hljs-deletion { color: #ffdcd7; background: #67060c; }
  .hljs-addition { background: #033a16; }
}`;

/** The CSS text, exactly as embedded. */
export const VIEWER_CSS = `
:root {
  --bg: #f7f7f5; --panel: #ffffff; --side: #f0efeb; --text: #1f2328; --muted: #6a6f76; --border: #dedcd6;
  --accent: #2f6feb; --user: #e8f0fe; --user-border: #b6cdf8; --assistant: #ffffff; --tool: #f6f8fa;
  --ok: #1a7f37; --error: #cf222e; --warn: #9a6700; --label-bg: #fff3c4; --label: #6b4f00; --flash: #fff1a8;
  --code-bg: #f6f8fa; --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #16181c; --panel: #1d2026; --side: #131519; --text: #e6e6e6; --muted: #9aa0a8; --border: #30343c;
    --accent: #6ea8fe; --user: #1d2a40; --user-border: #2f4a75; --assistant: #1d2026; --tool: #22262e;
    --ok: #56d364; --error: #ff7b72; --warn: #e3b341; --label-bg: #4a3d10; --label: #f5d76e; --flash: #4d4414;
    --code-bg: #15171b;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; background: var(--bg); color: var(--text); font: 14px/1.55 var(--sans); }
#app { display: grid; grid-template-columns: minmax(260px, 360px) 1fr; height: 100vh; }
.loading { padding: 2rem; color: var(--muted); }
${SIDEBAR_CSS}
.content { overflow: auto; min-height: 0; padding: 0 28px 80px; overflow-anchor: none; }
.session-head { max-width: 980px; margin: 24px auto 12px; background: var(--panel); border: 1px solid var(--border); border-radius: 10px; padding: 16px 20px; }
.session-head h1 { margin: 0 0 10px; font-size: 20px; overflow-wrap: anywhere; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 4px 18px; margin: 0; }
.fact { display: flex; gap: 8px; min-width: 0; }
.fact dt { color: var(--muted); flex: none; }
.fact dd { margin: 0; overflow-wrap: anywhere; }
.notes { color: var(--muted); font-size: 12px; margin: 10px 0; }
.toolbar { display: flex; flex-wrap: wrap; gap: 6px; }
.messages { max-width: 980px; margin: 0 auto; display: flex; flex-direction: column; gap: 10px; }
.window-edge { color: var(--muted); font-size: 12px; text-align: center; }
.window-edge:empty { display: none; }
.entry { background: var(--assistant); border: 1px solid var(--border); border-radius: 10px; padding: 10px 14px; min-width: 0; scroll-margin: 40px; }
.entry.user { background: var(--user); border-color: var(--user-border); }
.entry.tool-result, .entry.bash, .entry.system { background: var(--tool); }
.entry.summary { border-left: 4px solid var(--warn); }
.entry.failed { border-left: 4px solid var(--error); }
.entry.hidden-message { display: none; }
body.show-hidden .entry.hidden-message { display: block; opacity: .75; }
.entry.flash { animation: flash 1.6s ease-out; }
@keyframes flash { from { background: var(--flash); } }
.entry-head { display: flex; align-items: baseline; gap: 8px; flex-wrap: wrap; font-size: 12px; color: var(--muted); margin-bottom: 4px; }
.entry-head .who { font-weight: 600; color: var(--text); font-size: 13px; }
.entry-head .model { font-family: var(--mono); overflow-wrap: anywhere; }
.entry-head .time { margin-left: auto; font-family: var(--mono); }
.entry-head .turn { font-family: var(--mono); }
.anchor { color: var(--muted); text-decoration: none; font-family: var(--mono); }
.anchor:hover { color: var(--accent); }
.meta-line { display: flex; gap: 8px; align-items: baseline; padding: 2px 14px; background: transparent; border: 0; color: var(--muted); font: 12px var(--mono); }
.meta-line .time { margin-left: auto; }
.usage { color: var(--muted); font: 12px var(--mono); margin-top: 4px; }
.note { color: var(--muted); font-style: italic; margin: 4px 0; }
.error-text { color: var(--error); margin: 4px 0; overflow-wrap: anywhere; }
${MARKDOWN_CSS}
details { margin: 6px 0; }
details > summary { cursor: pointer; color: var(--muted); font-size: 12.5px; list-style: revert; }
details.tool { border: 1px solid var(--border); border-radius: 8px; background: var(--tool); padding: 4px 10px; }
details.tool > summary { font-family: var(--mono); color: var(--text); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
details.tool.failed { border-color: var(--error); }
.tool-name { font-weight: 600; color: var(--accent); }
.tool-args { color: var(--text); }
.status { margin-left: 8px; font-size: 11px; padding: 0 6px; border-radius: 999px; border: 1px solid currentColor; }
.status.ok { color: var(--ok); }
.status.error { color: var(--error); }
.status.pending { color: var(--warn); }
details.thinking .md { color: var(--muted); font-style: italic; border-left: 3px solid var(--border); padding-left: 10px; }
.more { margin: 2px 0 6px; border-radius: 6px; }
${HIGHLIGHT_CSS}
@media (max-width: 800px) {
  #app { grid-template-columns: 1fr; grid-template-rows: 40vh 1fr; }
  .sidebar { border-right: 0; border-bottom: 1px solid var(--border); }
  .content { padding: 0 10px 60px; }
}
`;
