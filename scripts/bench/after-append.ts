/**
 * `search` and `stats --all` right after pi wrote to a session, beside the same with nothing
 * changed: before each timed run a turn (the user's message and a paid answer) is appended to
 * SESSION_FILE, and after it the file is put back byte for byte with its mtime (so the corpus is
 * left as it was; the run after that, timed too, reads a session cut short). Builds side by side,
 * runs interleaved:
 *
 *   npx tsx scripts/bench/after-append.ts AGENT_DIR SESSION_FILE CACHE_DIR BINARY… [--runs 3]
 *
 * CACHE_DIR is `XDG_CACHE_HOME` with a warm catalog of AGENT_DIR; set `PI_SESSION_CHECK=full` to
 * time full checks. The README's "by hand, one turn appended to one session" figures (2026-12-03).
 * @module
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, closeSync, openSync, readSync, statSync, truncateSync, utimesSync } from "node:fs";
import process from "node:process";

const args = process.argv.slice(2);
const at = args.indexOf("--runs");
const runs = at < 0 ? 3 : Number(args.splice(at, 2)[1]);
const [agentDir, file, cacheDir, ...binaries] = args;
if (!agentDir || !file || !cacheDir || binaries.length === 0) {
  console.error("usage: after-append.ts AGENT_DIR SESSION_FILE CACHE_DIR BINARY… [--runs N]");
  process.exit(2);
}

const before = statSync(file, { bigint: true });
const size = Number(before.size);
const tail = new Uint8Array(Math.min(size, 65536));
const fd = openSync(file, "r");
readSync(fd, tail, 0, tail.length, size - tail.length);
closeSync(fd);
const parentId = JSON.parse(new TextDecoder().decode(tail).trim().split("\n").at(-1)!).id as string;

/** Puts the file back as it was: its bytes (the append cut off) and its mtime. */
function restore(): void {
  truncateSync(file, size);
  utimesSync(file, Number(before.atimeNs) / 1e9, Number(before.mtimeNs) / 1e9);
}

function time(binary: string, argv: string[]): number {
  const started = performance.now();
  const run = spawnSync(binary, argv, { env: { ...process.env, XDG_CACHE_HOME: cacheDir }, stdio: ["ignore", "ignore", "pipe"] });
  if (run.status !== 0 && run.status !== 1) throw new Error(`${binary} ${argv.join(" ")}: exit ${run.status}: ${run.stderr}`);
  return performance.now() - started;
}

/** A turn as pi appends it: the user's message, and the model's answer with its usage. */
function turn(i: number, name: string): string {
  const at = Date.now();
  const ids = [0, 1].map((k) => (0xa0000000 + i * 16 + k * 8 + name.length).toString(16));
  const usage = { input: 1200 + i, output: 80, cacheRead: 9000, cacheWrite: 0, totalTokens: 10280 + i, cost: { input: 0.0036, output: 0.0012, cacheRead: 0.0027, cacheWrite: 0, total: 0.0075 } };
  const user = { type: "message", id: ids[0], parentId, timestamp: new Date(at).toISOString(), message: { role: "user", content: [{ type: "text", text: `again ${i}` }], timestamp: at } };
  const reply = {
    type: "message",
    id: ids[1],
    parentId: ids[0],
    timestamp: new Date(at + 1).toISOString(),
    message: { role: "assistant", content: [{ type: "text", text: "done" }], provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop", timestamp: at + 1 },
  };
  return JSON.stringify(user) + "\n" + JSON.stringify(reply) + "\n";
}

const commands: [string, string[]][] = [
  ["search", ["search", "flaky", "--all", "--json", "--agent-dir", agentDir]],
  ["stats", ["stats", "--all", "--json", "--agent-dir", agentDir]],
];
const times = new Map<string, number[]>();
const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
try {
  for (let i = 0; i < runs; i++) {
    for (const binary of binaries) {
      for (const [name, argv] of commands) {
        appendFileSync(file, turn(i, name));
        record(`${binary} ${name} after an append`, time(binary, argv));
        record(`${binary} ${name} nothing changed`, time(binary, argv));
        restore();
        // The catalog reads the file back as it was: a session cut short, which no kept answer goes on from.
        record(`${binary} ${name} put back`, time(binary, argv));
      }
    }
  }
} finally {
  restore();
}
const now = statSync(file, { bigint: true });
if (now.size !== before.size || now.mtimeNs !== before.mtimeNs) console.error(`${file} was not put back as it was`);
for (const [key, list] of times) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(`${key}: median ${sorted[sorted.length >> 1].toFixed(0)} ms (${list.map((ms) => ms.toFixed(0)).join(" ")})`);
}
