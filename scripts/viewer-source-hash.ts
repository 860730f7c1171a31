/**
 * The fingerprint of everything the HTML viewer bundle is built from: the viewer's sources,
 * the core modules it imports and the versions of marked and highlight.js. The generated
 * bundle records it; a test recomputes it to catch a bundle that was not rebuilt.
 * @module
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const VIEWER_DIR = join(ROOT, "src/export/html/viewer");
/** Files outside the viewer folder that it imports. */
const SHARED = ["src/core/info/usage-totals.ts", "src/core/tree/tree-filter.ts"];
const PACKAGES = ["marked", "highlight.js"];

/** SHA-256 (hex) over the sources and package versions, in a fixed order. */
export function viewerSourceHash(): string {
  const hash = createHash("sha256");
  const files = readdirSync(VIEWER_DIR).filter((name) => name.endsWith(".ts")).sort().map((name) => join("src/export/html/viewer", name));
  for (const file of [...files, ...SHARED]) hash.update(`${file}\n`).update(readFileSync(join(ROOT, file)));
  for (const name of PACKAGES) {
    const { version } = JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8"));
    hash.update(`${name}@${version}\n`);
  }
  return hash.digest("hex");
}
