/**
 * Bundles the serve pages' script (src/serve/web/client/main.ts with uPlot and the export
 * viewer's sidebar) and the session pages' second one (client/markdown.ts: the viewer's markdown,
 * with marked and highlight.js) into minified scripts, and takes uPlot's stylesheet, writing them
 * as src/serve/web/client-bundle.ts (as scripts/build-viewer.ts does for the export).
 *
 *   npx tsx scripts/build-serve-client.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleInline, writeGenerated } from "./inline-bundle.ts";
import { ROOT, serveClientSourceHash } from "./serve-client-source-hash.ts";

const css = readFileSync(join(ROOT, "node_modules/uplot/dist/uPlot.min.css"), "utf8").trim();
if (/<\/style/i.test(css)) throw new Error("uPlot's CSS contains </style");
writeGenerated({
  out: "src/serve/web/client-bundle.ts",
  script: "scripts/build-serve-client.ts",
  summary: "src/serve/web/client/ (with uPlot and the export viewer's sidebar and markdown): the serve pages' scripts and uPlot's stylesheet",
  hash: { name: "CLIENT_SOURCE_HASH", value: serveClientSourceHash(), by: "scripts/serve-client-source-hash.ts" },
  constants: [
    { doc: "The minified page script, inlined as the pages' only script.", name: "CLIENT_JS", value: bundleInline("src/serve/web/client/main.ts", "serve client bundle") },
    { doc: "uPlot's stylesheet.", name: "UPLOT_CSS", value: css },
    { doc: "The session and context pages' second script: messages rendered as the export viewer renders them.", name: "MARKDOWN_JS", value: bundleInline("src/serve/web/client/markdown.ts", "serve markdown bundle") },
  ],
});
