/**
 * The fingerprint of what the serve pages' script is built from: its own sources, the views
 * and shared renderers it imports, and uPlot's version. The generated bundle records it; a test
 * recomputes it to catch a bundle that was not rebuilt.
 * @module
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIRS = ["src/serve/web/client", "src/serve/web/views", "src/render", "src/core/format"];
const FILES = ["src/serve/web/html.ts", "src/core/storage/paths.ts"];

/** SHA-256 (hex) over the sources and uPlot's version, in a fixed order. */
export function serveClientSourceHash(): string {
  const hash = createHash("sha256");
  const files = DIRS.flatMap((dir) => readdirSync(join(ROOT, dir)).filter((name) => name.endsWith(".ts")).sort().map((name) => `${dir}/${name}`));
  for (const file of [...files, ...FILES]) hash.update(`${file}\n`).update(readFileSync(join(ROOT, file)));
  const { version } = JSON.parse(readFileSync(join(ROOT, "node_modules/uplot/package.json"), "utf8"));
  hash.update(`uplot@${version}\n`);
  return hash.digest("hex");
}
