/**
 * `npm run build:npm` (and npm's `prepack`): the dist/ files of the npm package, for Node ≥ 20
 * with no TypeScript at run time.
 *   dist/pi-session.mjs, dist/cli/  the CLI, bundled by bun; the lazily loaded commands stay
 *                                   separate chunks, so `--version` does not load them
 *   dist/lib/                       the library (src/mod.ts, src/compat/mod.ts and what they import), one .js
 *                                   and one .d.ts per source file, by tsc (tsconfig.build.json)
 * npm packages are left as imports: they are the package's `dependencies`.
 * @module
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildCommit } from "./compile.ts";

const root = new URL("..", import.meta.url).pathname;
const bin = (name: string) => join(root, "node_modules", ".bin", name);

/**
 * `bun build` arguments for the Node CLI (`pi-session.mjs` and its chunks under `cli/`) in
 * `outdir`. The bench builds the same into its cache to measure the CLI as npm users run it.
 */
export function cliBundleArgs(outdir: string): string[] {
  return [
    "build", "src/cli/main.ts",
    "--target=node", "--format=esm", "--packages=external", "--splitting",
    "--outdir", outdir,
    "--entry-naming", "pi-session.mjs",
    "--chunk-naming", "cli/[name]-[hash].mjs",
    "--banner", "#!/usr/bin/env node",
    // `--version` names the commit, as the executable's does (src/version.ts).
    `--define=PI_SESSION_COMMIT=${JSON.stringify(buildCommit())}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = join(root, "dist");
  // Chunk names carry a hash: clear old ones so the package holds only this build's.
  for (const stale of ["pi-session.mjs", "cli", "lib"]) rmSync(join(dist, stale), { recursive: true, force: true });
  execFileSync(bin("bun"), cliBundleArgs(dist), { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(bin("tsc"), ["-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  console.error("Built dist/pi-session.mjs, dist/cli/ and dist/lib/");
}
