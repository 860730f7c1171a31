/**
 * Bundles the HTML export's viewer (src/export/html/viewer/main.ts with marked and
 * highlight.js) into one minified script, written as src/export/html/viewer-bundle.ts.
 *
 *   npx tsx scripts/build-viewer.ts
 */
import { bundleInline, writeGenerated } from "./inline-bundle.ts";
import { viewerSourceHash } from "./viewer-source-hash.ts";

writeGenerated({
  out: "src/export/html/viewer-bundle.ts",
  script: "scripts/build-viewer.ts",
  summary: "src/export/html/viewer/ (with marked and highlight.js): the HTML export's viewer script",
  hash: { name: "VIEWER_SOURCE_HASH", value: viewerSourceHash(), by: "scripts/viewer-source-hash.ts" },
  constants: [{ doc: "The minified viewer, inlined as the export's only script.", name: "VIEWER_JS", value: bundleInline("src/export/html/viewer/main.ts", "viewer bundle") }],
});
