/**
 * Bench case `pick`: how soon the picker shows sessions, as a user sees it. The compiled binary
 * runs `pick --all` in a pseudo-terminal (util-linux `script`), and this script timestamps what
 * reaches the terminal:
 *
 *   node --import tsx scripts/bench/pick.ts --impl warm|cold BINARY AGENT_DIR --cache-dir DIR
 *
 * The time is from spawning `script` (its own start-up included) to the first frame that holds a
 * session row (the selection mark `›`). With `--verify` the check also says how many frames
 * showed rows while `Loading n/total` was still on screen (rows appearing progressively) and
 * when the list was complete (the header's `◉ All`). Escape then closes the picker (exit 130).
 *
 * `warm` and `cold` run the same command; the bench deletes the cold row's catalog before each run.
 * With `--rss-out FILE` the binary runs under `/usr/bin/time` writing its own peak RSS to FILE, and
 * the result line carries it (`rssKb`): the picker's memory rather than this script's.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { parseCaseArgs, skip } from "./_harness.ts";

const args = parseCaseArgs();
const [binary, agentDir] = args.positional;
const cacheDir = args.flags.get("cache-dir");
const rssOut = args.flags.get("rss-out");
if (!binary || !agentDir || !cacheDir) throw new Error("usage: pick.ts --impl warm|cold BINARY AGENT_DIR --cache-dir DIR");

const ROW = "› ";
const LOADING = /Loading (\d+)\/(\d+)/g;
/** The header's scope switch once the list is complete (it shows `Loading n/total` before). */
const LOADED = "◉ All";
const TIMEOUT_MS = 60_000;

interface Timeline {
  firstRowMs: number;
  /** Output chunks that held rows while a `Loading n/total` counter was still short of total. */
  partialFrames: number;
  completeMs: number;
  exitCode: number | null;
}

function watchPicker(): Promise<Timeline> {
  const started = performance.now();
  // No `stty`: the pseudo-terminal reports no size, and the picker then draws 80×24.
  const timed = rssOut ? `/usr/bin/time -f %M -o '${rssOut}' ` : "";
  const command = `exec ${timed}'${binary}' pick --all`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: cacheDir, TERM: "xterm-256color", NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let screen = "";
    let firstRowMs = -1;
    let partialFrames = 0;
    let completeMs = -1;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the picker showed no complete list within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      const now = performance.now() - started;
      screen += text;
      if (firstRowMs < 0 && screen.includes(ROW)) firstRowMs = now;
      const counters = [...text.matchAll(LOADING)];
      const partial = counters.some((m) => Number(m[1]) < Number(m[2]));
      if (firstRowMs >= 0 && partial) partialFrames++;
      if (firstRowMs >= 0 && completeMs < 0 && screen.includes(LOADED)) {
        completeMs = now;
        child.stdin.write("\x1b");
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (firstRowMs < 0) reject(new Error(`the picker exited (${code}) without showing a row:\n${screen.slice(-500)}`));
      else resolve({ firstRowMs, partialFrames, completeMs, exitCode: code });
    });
  });
}

if (args.impl !== "warm" && args.impl !== "cold") throw new Error(`unknown --impl ${args.impl}`);
const probe = spawn("script", ["--version"], { stdio: "ignore" });
await new Promise<void>((resolve) => {
  probe.on("error", () => skip("util-linux `script` is not installed"));
  probe.on("close", () => resolve());
});
const timeline = await watchPicker();
const out: Record<string, unknown> = { ms: timeline.firstRowMs };
if (rssOut) out.rssKb = Number(readFileSync(rssOut, "utf8").trim().split("\n").pop());
if (args.verify) {
  const complete = timeline.completeMs.toFixed(0);
  out.check = `first rows at ${timeline.firstRowMs.toFixed(0)} ms, ${timeline.partialFrames} frames with rows while loading, complete at ${complete} ms, exit ${timeline.exitCode}`;
}
console.log(`BENCH_RESULT ${JSON.stringify(out)}`);
