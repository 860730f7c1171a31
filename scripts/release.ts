/**
 * `npm run release`: one executable per platform of scripts/release-targets.ts, built offline
 * (each foreign Bun runtime comes from its npm package, fetched once with `npm pack` and kept
 * in .cache/bun-targets), named `dist/release/pi-session-<version>-<os>-<arch>[.exe]`, plus
 * `dist/release/SHA256SUMS` for `sha256sum -c`.
 * @module
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { VERSION } from "../src/version.ts";
import { buildCommit, compileArgs } from "./compile.ts";
import { hostTarget, RELEASE_TARGETS, type ReleaseTarget, releaseFileName } from "./release-targets.ts";

const root = new URL("..", import.meta.url).pathname;
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const version: string = readJson(join(root, "package.json")).version;
const bunVersion: string = readJson(join(root, "node_modules", "bun", "package.json")).version;
const outDir = join(root, "dist", "release");
const bun = join(root, "node_modules", ".bin", "bun");

/**
 * The Bun runtime for one platform, in the version of our own Bun: our own Bun for the
 * machine we run on, else the runtime from its npm package, packed once into the cache.
 */
function runtimeFor(target: ReleaseTarget): string {
  if (target === hostTarget(process.platform, process.arch)) return realpathSync(bun);
  const dir = join(root, ".cache", "bun-targets", `${target.runtimePackage}-${bunVersion}`);
  const binary = join(dir, "package", "bin", target.runtimeFile);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const tarball = execFileSync("npm", ["pack", `@oven/bun-${target.runtimePackage}@${bunVersion}`, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync("tar", ["-xzf", tarball], { cwd: dir });
  return binary;
}

/** True when git reports uncommitted changes (false without git: nothing to warn about). */
function hasUncommittedChanges(): boolean {
  try {
    return execFileSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() !== "";
  } catch {
    return false;
  }
}

if (VERSION !== version) {
  throw new Error(`Cannot release: package.json says ${version} but src/version.ts says ${VERSION}`);
}
if (hasUncommittedChanges()) console.warn(`warning: uncommitted changes; the executables report commit ${buildCommit()} but include them`);

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
let sums = "";
for (const target of RELEASE_TARGETS) {
  const name = releaseFileName(version, target);
  const file = join(outDir, name);
  execFileSync(bun, compileArgs(file, [`--target=${target.bunTarget}`, `--compile-executable-path=${runtimeFor(target)}`]), { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  sums += `${createHash("sha256").update(readFileSync(file)).digest("hex")}  ${name}\n`;
  console.log(`${(statSync(file).size / 1e6).toFixed(1).padStart(6)} MB  dist/release/${name}  (${target.bunTarget}, Bun ${bunVersion})`);
}
// Two spaces between hash and name: the text-mode line format `sha256sum -c` reads.
writeFileSync(join(outDir, "SHA256SUMS"), sums);
console.log("dist/release/SHA256SUMS written; verify with: cd dist/release && sha256sum -c SHA256SUMS");
