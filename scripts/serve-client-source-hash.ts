/**
 * The fingerprint of what the serve pages' scripts are built from: its own sources, the views,
 * shared renderers and export-viewer modules they import, and the versions of uPlot, marked and
 * highlight.js.
 * @module
 */
import { ROOT, sourceHash } from "./source-hash.ts";

export { ROOT };

/** SHA-256 (hex) over the sources and package versions, in a fixed order. */
export function serveClientSourceHash(): string {
  return sourceHash({
    dirs: ["src/serve/web/client", "src/serve/web/views", "src/render", "src/core/format", "src/export/html/viewer"],
    files: ["src/serve/web/html.ts", "src/core/storage/paths.ts", "src/core/tree/tree-filter.ts"],
    packages: ["uplot", "marked", "highlight.js"],
  });
}
