/**
 * `npm run build:all`: the native executable plus linux-arm64, darwin-x64, darwin-arm64 and
 * windows-x64 ones, cross-compiled offline with the Bun runtimes npm publishes as
 * `@oven/bun-<target>` (fetched with `npm pack`, cached in .cache/bun-targets).
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileArgs } from "./compile.ts";

const root = new URL("..", import.meta.url).pathname;
const bunVersion = JSON.parse(readFileSync(join(root, "node_modules/bun/package.json"), "utf8")).version as string;
const cache = join(root, ".cache", "bun-targets");

/** Our target name, Bun's `--target`, the npm package, and the runtime's path inside it. */
const TARGETS = [
  { name: "linux-arm64", target: "bun-linux-arm64", pkg: "linux-aarch64", exe: "bun", out: "pi-session-linux-arm64" },
  { name: "darwin-x64", target: "bun-darwin-x64", pkg: "darwin-x64", exe: "bun", out: "pi-session-darwin-x64" },
  { name: "darwin-arm64", target: "bun-darwin-arm64", pkg: "darwin-aarch64", exe: "bun", out: "pi-session-darwin-arm64" },
  { name: "windows-x64", target: "bun-windows-x64", pkg: "windows-x64", exe: "bun.exe", out: "pi-session-windows-x64.exe" },
];

function runtimeFor(pkg: string, exe: string): string {
  const dir = join(cache, `${pkg}-${bunVersion}`);
  const binary = join(dir, "package", "bin", exe);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const tarball = execFileSync("npm", ["pack", `@oven/bun-${pkg}@${bunVersion}`, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync("tar", ["-xzf", tarball], { cwd: dir });
  return binary;
}

const bun = join(root, "node_modules", ".bin", "bun");
execFileSync(bun, compileArgs("dist/pi-session"), { cwd: root, stdio: "inherit" });
for (const t of TARGETS) {
  const runtime = runtimeFor(t.pkg, t.exe);
  execFileSync(bun, compileArgs(join("dist", t.out), [`--target=${t.target}`, `--compile-executable-path=${runtime}`]), { cwd: root, stdio: "inherit" });
}
console.log(execFileSync("file", ["dist/pi-session", ...TARGETS.map((t) => join("dist", t.out))], { cwd: root, encoding: "utf8" }));
