/**
 * The pages' one stylesheet (with uPlot's), light or dark by the system's preference, and
 * laid out to work from 420 px wide up. Tree depth is a class (`d0`…`d30`) because the CSP
 * allows no inline style attributes.
 * @module
 */
import { UPLOT_CSS } from "./client-bundle.ts";
import { HIGHLIGHT_CSS, MARKDOWN_CSS, SIDEBAR_CSS } from "../../export/html/viewer-style.ts";

const depths = Array.from({ length: 31 }, (_, d) => `.tree .d${d} a{padding-left:${0.4 + d * 0.7}em}`).join("");

const OWN_CSS = `
:root{--code-bg:var(--panel);--text:var(--fg);--border:var(--line);--side:var(--panel);--label-bg:var(--mark);--label:var(--fg);--mono:ui-monospace,SFMono-Regular,Menlo,monospace;--sans:system-ui,-apple-system,"Segoe UI",sans-serif;--bg:#fff;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--panel:#f6f8fa;--accent:#0969da;--user:#ddf4ff;--assistant:#fff;--tool:#f6f8fa;--mark:#fff8c5;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;--panel:#161b22;--accent:#4493f8;--user:#0c2d6b;--assistant:#0d1117;--tool:#161b22;--mark:#3b2f00}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font-size:15px;line-height:1.45}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em}
.top{display:flex;gap:1em;align-items:center;padding:.5em 1em;border-bottom:1px solid var(--line);background:var(--panel);position:sticky;top:0;z-index:5}
.top nav{display:flex;gap:.8em;flex:1}.top nav a[aria-current]{font-weight:600;color:var(--fg)}
.brand{font-weight:700;color:var(--fg)}
.live{color:var(--muted);font-size:.8em}.live.on{color:#1a7f37}
main{padding:1em;max-width:1200px;margin:0 auto}
footer{color:var(--muted);font-size:.8em;padding:1em;text-align:center}
h1{font-size:1.3em;margin:.2em 0 .6em;overflow-wrap:anywhere}
.filters{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin-bottom:.8em}
.filters input[type=search]{flex:1;min-width:12em}
.filters select{max-width:16em}.filters .range{display:flex;flex-wrap:wrap;gap:.5em}.filters label{white-space:nowrap}
input,select,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.3em .5em}
button{cursor:pointer;background:var(--panel)}
.rows{list-style:none;margin:0;padding:0;border-top:1px solid var(--line)}
.row a{display:flex;flex-direction:column;padding:.5em .3em;border-bottom:1px solid var(--line);color:var(--fg)}
.row a:hover{background:var(--panel);text-decoration:none}
.row .title{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.row .title.named{font-weight:600}
.meta,.notes,.cwd,time{color:var(--muted);font-size:.85em}
.empty{color:var(--muted);padding:1em 0;list-style:none}
.more{margin:1em 0}
.session{display:grid;grid-template-columns:minmax(14em,22em) 1fr;gap:1em}
@media (max-width:760px){.session{grid-template-columns:1fr}.side{position:static}.tree-box{max-height:40vh}}
.side{position:sticky;top:3.2em;align-self:start;min-width:0}
.session>section{min-width:0}
.tree-filters{display:flex;flex-wrap:wrap;gap:.2em .6em;font-size:.8em;margin-bottom:.3em}.tree-filters a[aria-current]{font-weight:700;color:var(--fg)}
.side .sidebar{height:calc(100vh - 5em);border:1px solid var(--line);border-radius:6px}
.side .sidebar .filters{margin:0}.side .tree{padding:0;font-size:inherit}
@media (max-width:760px){.side .sidebar{height:45vh}}
.toggle[hidden]{display:none}
.tree-box{border:1px solid var(--line);border-radius:6px;max-height:80vh;overflow:auto;background:var(--panel)}
.tree{list-style:none;margin:0;padding:.3em 0;font-size:.85em}
.tree a{display:block;padding:.1em .4em;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tree .on-branch a{color:var(--fg)}.tree .leaf a{font-weight:700}.tree .target a{background:var(--mark)}
${depths}
.label{background:var(--mark);border-radius:4px;padding:0 .3em;font-size:.85em}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(11em,1fr));gap:.2em 1em;margin:0 0 1em}
.facts dt{color:var(--muted);font-size:.8em}.facts dd{margin:0;overflow-wrap:anywhere}
.toolbar{display:flex;flex-wrap:wrap;gap:.5em;margin-bottom:1em}
.entry{border:1px solid var(--line);border-radius:6px;margin:0 0 .6em;padding:.4em .6em;background:var(--assistant);overflow-wrap:anywhere}
.entry.kind-user{background:var(--user)}.entry.kind-toolResult,.entry.kind-bashExecution{background:var(--tool)}
.entry header{font-size:.85em;color:var(--muted);display:flex;gap:.5em;align-items:baseline;flex-wrap:wrap}
.entry .who{font-weight:600;color:var(--fg)}.entry header .ctx{margin-left:auto}
.entry.target{outline:2px solid var(--accent)}
body.js .entry.hidden-message{display:none}body.js.show-hidden .entry.hidden-message{display:block;opacity:.75}
.text{white-space:pre-wrap}.text.md{white-space:normal}
pre{white-space:pre-wrap;margin:.3em 0;max-height:30em;overflow:auto}
.call .tool{font-weight:600}.note,.usage,.line{color:var(--muted);font-size:.9em}
blockquote{margin:.3em 0;padding-left:.8em;border-left:3px solid var(--line)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,28em),1fr));gap:1em}
figure{margin:0}figcaption{font-weight:600;margin-bottom:.3em}.chart{min-height:240px}
table.usage{border-collapse:collapse;margin:1em 0;width:100%;font-size:.9em}
table.usage caption{text-align:left;font-weight:600;padding:.3em 0}
table.usage th,table.usage td{border-bottom:1px solid var(--line);padding:.25em .4em;text-align:right}
table.usage th[scope=row],table.usage thead th:first-child{text-align:left;overflow-wrap:anywhere}
.files{list-style:none;padding:0}.files-session{margin-bottom:1em}.files ul{font-size:.9em}
.op{font-weight:600}
`;

/** Everything the pages style with; its SHA-256 is in the CSP. The session page's sidebar and rendered messages are the export viewer's, and so are their rules. */
export const APP_CSS = [SIDEBAR_CSS, MARKDOWN_CSS, HIGHLIGHT_CSS, OWN_CSS.trim(), UPLOT_CSS].join("\n");
