/**
 * The fingerprint of what the serve pages' script is built from: its own sources, the views,
 * shared renderers and export-viewer modules it imports, and uPlot's version.
 * @module
 */
import { ROOT, sourceHash } from "./source-hash.ts";

export { ROOT };

/** SHA-256 (hex) over the sources and uPlot's version, in a fixed order. */
export function serveClientSourceHash(): string {
  return sourceHash({
    dirs: ["src/serve/web/client", "src/serve/web/views", "src/render", "src/core/format", "src/export/html/viewer"],
    files: ["src/serve/web/html.ts", "src/core/storage/paths.ts", "src/core/tree/tree-filter.ts"],
    packages: ["uplot"],
  });
}
