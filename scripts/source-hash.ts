/**
 * The fingerprint of what a browser bundle is built from: its source files, in a fixed order,
 * and the versions of the packages it bundles. The generated bundle records it; a test
 * recomputes it to catch a bundle that was not rebuilt.
 * @module
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** SHA-256 (hex) over the `.ts` files of `dirs`, then `files`, then the packages' versions. */
export function sourceHash(sources: { dirs: readonly string[]; files: readonly string[]; packages: readonly string[] }): string {
  const hash = createHash("sha256");
  const files = sources.dirs.flatMap((dir) => readdirSync(join(ROOT, dir)).filter((name) => name.endsWith(".ts")).sort().map((name) => `${dir}/${name}`));
  for (const file of [...files, ...sources.files]) hash.update(`${file}\n`).update(readFileSync(join(ROOT, file)));
  for (const name of sources.packages) {
    const { version } = JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8"));
    hash.update(`${name}@${version}\n`);
  }
  return hash.digest("hex");
}
