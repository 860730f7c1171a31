/**
 * Two (or more) builds side by side on the bench's "after 10 appended sessions" row of the scale
 * corpus, runs interleaved so that a loaded machine weighs on each alike:
 *
 *   npx tsx scripts/bench/appended-ab.ts AGENT_DIR BINARY_A BINARY_B [--runs 11] [--scale DIR]
 *
 * Each binary gets its own catalog, primed on the hard-linked copy of the corpus (`appendedLinks`)
 * by a listing and then a full check; before each run the copies are restored, the catalog put
 * back and a turn appended to 10 sessions, then `list --all` runs with `PI_SESSION_CHECK=full`
 * under `/usr/bin/time`, its output into a file. Prints each run and each binary's median.
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, openSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { appendedLinks } from "./appended-links.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const runs = Number(option("--runs", "11"));
const scaleDir = option("--scale", join(process.cwd(), ".cache", "bench", "scale"));
const [agentDir, ...binaries] = args;
if (!agentDir || binaries.length === 0) {
  console.error("usage: appended-ab.ts AGENT_DIR BINARY… [--runs N] [--scale DIR]");
  process.exit(2);
}

const fixtures = binaries.map((binary, b) =>
  appendedLinks(agentDir, join(scaleDir, "corpus-appended"), join(tmpdir(), `pi-session-ab-primed-${b}`), (copy, cacheDir) => {
    for (const check of ["auto", "full"]) {
      execFileSync(binary, ["list", "--all", "--agent-dir", copy], { env: { ...process.env, XDG_CACHE_HOME: cacheDir, PI_SESSION_CHECK: check }, stdio: "ignore" });
    }
  })
);
const seconds: number[][] = binaries.map(() => []);
for (let i = 0; i < runs; i++) {
  for (const [b, binary] of binaries.entries()) {
    const cache = join(tmpdir(), `pi-session-ab-cache-${b}`);
    fixtures[b].reset(cache);
    // Into a file, as the bench's rows: not timing a reader of the pipe (see runOnce in scripts/bench.ts).
    const out = join(tmpdir(), `pi-session-ab-out-${process.pid}.txt`);
    const fd = openSync(out, "w");
    const run = spawnSync("/usr/bin/time", ["-f", "%e s %U u %S s %R faults %M KB", binary, "list", "--all", "--agent-dir", fixtures[b].agentDir], {
      env: { ...process.env, XDG_CACHE_HOME: cache, PI_SESSION_CHECK: "full" },
      encoding: "utf8",
      stdio: ["ignore", fd, "pipe"],
    });
    closeSync(fd);
    const line = run.stderr.trim().split("\n").pop() ?? "";
    seconds[b].push(Number(line.split(" ")[0]));
    console.log(`${binary}: ${line}, ${statSync(out).size} bytes out`);
  }
}
for (const [b, binary] of binaries.entries()) {
  const sorted = [...seconds[b]].sort((x, y) => x - y);
  console.log(`${binary}: median ${sorted[Math.floor(sorted.length / 2)]} s (${sorted[0]}–${sorted[sorted.length - 1]})`);
}
