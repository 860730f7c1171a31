/**
 * The one way we compile the single executable: `bun build --compile`, minified, with
 * bytecode (it halves start-up time), and the git commit baked in for `--version`.
 * `npm run build`, `npm run release`, the bench and the end-to-end tests all go through
 * `compileArgs`.
 *   npx tsx scripts/compile.ts [OUTFILE]      (default dist/pi-session)
 * @module
 */
import { execFileSync } from "node:child_process";
import process from "node:process";

const root = new URL("..", import.meta.url).pathname;

/**
 * The commit to report: `$PI_SESSION_COMMIT` when set (a container build has no .git),
 * else the checkout's short HEAD, else `unknown` (no git, or not a checkout).
 */
export function buildCommit(): string {
  const given = process.env.PI_SESSION_COMMIT?.trim();
  if (given) return given;
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || "unknown";
  } catch {
    return "unknown";
  }
}

/** `bun build` arguments for an executable at `outfile`; `extra` e.g. a cross-compile target. */
export function compileArgs(outfile: string, extra: string[] = []): string[] {
  // src/version.ts reads this global; without the define it reports `source`.
  const commit = `--define=PI_SESSION_COMMIT=${JSON.stringify(buildCommit())}`;
  return ["build", "--compile", "--minify", "--bytecode", "--splitting", "--format=esm", commit, ...extra, "src/cli/main.ts", "src/otel/export-worker.ts", "src/export/line-scan-worker.ts", "src/query/skim-worker.ts", "--outfile", outfile];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  execFileSync(`${root}node_modules/.bin/bun`, compileArgs(process.argv[2] ?? "dist/pi-session"), { cwd: root, stdio: "inherit" });
}
