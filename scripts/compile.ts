/**
 * The one way we compile the single executable: `bun build --compile`, minified, with
 * bytecode (it halves start-up time). `npm run build`, build:all, the bench and the
 * end-to-end tests all go through `compileArgs`.
 *   npx tsx scripts/compile.ts [OUTFILE]      (default dist/pi-session)
 * @module
 */
import { execFileSync } from "node:child_process";
import process from "node:process";

/** `bun build` arguments for an executable at `outfile`; `extra` e.g. a cross-compile target. */
export function compileArgs(outfile: string, extra: string[] = []): string[] {
  return ["build", "--compile", "--minify", "--bytecode", "--format=esm", ...extra, "src/cli/main.ts", "--outfile", outfile];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL("..", import.meta.url).pathname;
  execFileSync(`${root}node_modules/.bin/bun`, compileArgs(process.argv[2] ?? "dist/pi-session"), { cwd: root, stdio: "inherit" });
}
