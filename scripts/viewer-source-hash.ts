/**
 * The fingerprint of everything the HTML viewer bundle is built from: the viewer's sources,
 * the core modules it imports and the versions of marked and highlight.js.
 * @module
 */
import { join } from "node:path";
import { ROOT, sourceHash } from "./source-hash.ts";

export { ROOT };
export const VIEWER_DIR = join(ROOT, "src/export/html/viewer");

/** SHA-256 (hex) over the sources and package versions, in a fixed order. */
export function viewerSourceHash(): string {
  return sourceHash({
    dirs: ["src/export/html/viewer"],
    // Files outside the viewer folder that it imports.
    files: ["src/core/info/usage-totals.ts", "src/core/tree/tree-filter.ts"],
    packages: ["marked", "highlight.js"],
  });
}
