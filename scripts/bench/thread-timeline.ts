/**
 * Which threads of a command use the CPU, and when (Linux): runs the command, reads each of its
 * threads' user and system time from `/proc/<pid>/task/<tid>/stat` every 5 ms, and prints per
 * 100 ms of wall clock the CPU each thread used in it (ms; the kernel counts in 10 ms ticks).
 * Threads that used under two ticks in all are left out.
 *
 *   npx tsx scripts/bench/thread-timeline.ts dist/pi-session otel --all --endpoint http://127.0.0.1:4411
 *
 * It showed, for example, that `otel` on two cores maps every session on its main thread, the
 * engine's compiler thread beside it (README, the otel paragraph of 2026-12-03 13:10).
 * @module
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: thread-timeline.ts COMMAND [ARG…]");
  process.exit(2);
}

const STEP_MS = 100;
const POLL_MS = 5;
/** Milliseconds of one clock tick (`getconf CLK_TCK` is 100 on Linux). */
const TICK_MS = 10;

/** Each thread's name and its user + system ticks so far. */
function threadTicks(pid: number): Map<string, { name: string; ticks: number }> {
  const out = new Map<string, { name: string; ticks: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // The name is in parentheses and may hold spaces: the fields after it are split.
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    out.set(tid, { name: stat.slice(stat.indexOf("(") + 1, close), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return out;
}

const started = performance.now();
const child = spawn(command, args, { stdio: ["ignore", "ignore", "inherit"] });
const samples: { at: number; threads: Map<string, { name: string; ticks: number }> }[] = [];
const timer = setInterval(() => {
  try {
    samples.push({ at: performance.now() - started, threads: threadTicks(child.pid!) });
  } catch {
    // The process is ending: its task folder is going.
  }
}, POLL_MS);

child.on("exit", (code) => {
  clearInterval(timer);
  const wall = performance.now() - started;
  const names = new Map<string, string>();
  const most = new Map<string, number>();
  for (const { threads } of samples) {
    for (const [tid, { name, ticks }] of threads) {
      names.set(tid, name);
      most.set(tid, Math.max(most.get(tid) ?? 0, ticks));
    }
  }
  const shown = [...most].filter(([, ticks]) => ticks >= 2).map(([tid]) => tid);
  console.log(`exit ${code}, wall ${wall.toFixed(0)} ms; CPU ms per ${STEP_MS} ms of wall clock`);
  console.log("until ms".padEnd(10) + shown.map((tid) => `${names.get(tid)}:${tid}`.padStart(20)).join(""));
  let before = new Map<string, number>();
  for (let until = STEP_MS; until < wall + STEP_MS; until += STEP_MS) {
    const last = samples.filter((s) => s.at <= until).at(-1);
    const now = new Map(shown.map((tid) => [tid, last?.threads.get(tid)?.ticks ?? before.get(tid) ?? 0]));
    console.log(String(until).padEnd(10) + shown.map((tid) => String((now.get(tid)! - (before.get(tid) ?? 0)) * TICK_MS).padStart(20)).join(""));
    before = now;
  }
});
