/**
 * Peak RSS of the commands that walk a whole corpus (issue 22, item 2), for the `walkers` bench
 * case (`--scale`) or on its own:
 *
 *   node --import tsx scripts/bench/walkers.ts BINARY AGENT_DIR CACHE_DIR [--only a,b] [--cold]
 *   node --import tsx scripts/bench/walkers.ts --slope SMALL.jsonl SESSIONS LARGE.jsonl SESSIONS
 *
 * Each walker runs the compiled binary over AGENT_DIR with its catalog in CACHE_DIR (made warm by
 * one `index` first; `--cold` also measures `index` from no catalog, which at 25,000 sessions takes
 * minutes). Commands are measured with `/usr/bin/time -f %M`; the servers and the picker, which
 * stay up, by their `VmHWM` (the kernel's peak RSS) just before they are stopped, after:
 * serve: `GET /api/sessions` and `GET /metrics`, then its background warm-up ended
 * (`pi_session_warmup_done 1` in `/metrics`, asked every 2 s) and both requests again, so the
 * peak is that of the server's life, not of its first seconds; mcp: `initialize` and one `search_sessions`;
 * pick: the list complete (`◉ All`), 8 s for the message texts to load from the catalog (primed
 * by an untimed `list --all --search`), a word typed. Prints one JSON line per walker:
 * `{"name", "peakMb", "seconds"}`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** A word of the corpora's texts with few hits. */
export const WALK_WORD = "flaky";
/** A folder the corpora's sessions read from (generated paths: `/home/dev/<project>/src/...`). */
export const WALK_PATH = "/home/dev/p1/src";

export interface WalkerResult {
  name: string;
  peakMb: number;
  seconds: number;
}

/** The walkers, in the order they run; `index (cold)` only when asked. */
export const WALKERS = ["index (cold)", "index (warm)", "check <dir>", "files --all", "search --all (scan)", "search --all (warm)", "pick --all", "serve", "mcp search_sessions", "otel --dry-run --all"];

/** Peak RSS in MB of a process still running, from the kernel. */
function peakOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** A command run to its end under `/usr/bin/time`: its peak RSS and wall time. */
function timed(argv: string[], env: Record<string, string>): WalkerResult & { code: number | null } {
  const dir = mkdtempSync(join(tmpdir(), "walkers-"));
  const out = join(dir, "time");
  const started = performance.now();
  const run = spawnSync("/usr/bin/time", ["-f", "%M", "-o", out, ...argv], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 26 });
  const seconds = (performance.now() - started) / 1000;
  const kb = Number(readFileSync(out, "utf8").trim().split("\n").pop());
  rmSync(dir, { recursive: true, force: true });
  return { name: "", peakMb: kb / 1024, seconds, code: run.status };
}

/** Resolves once `child`'s output (as text) makes `done` true; rejects if it exits first. */
function until(child: ChildProcess, stream: "stdout", done: (text: string) => boolean, timeoutMs = 1_800_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms: ${text.slice(-300)}`)), timeoutMs);
    child[stream]!.on("data", (d) => {
      text += String(d);
      if (done(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} early: ${text.slice(-300)}`));
    });
  });
}

/** How long the server's background warm-up may take before the walker gives up. */
const SERVE_WARMUP_MS = 15 * 60 * 1000;

async function serve(binary: string, agentDir: string, env: Record<string, string>): Promise<number> {
  const child = spawn(binary, ["--agent-dir", agentDir, "serve", "--port", "0"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "ignore"] });
  try {
    const url = /^(http:\/\/\S+)\n/m.exec(await until(child, "stdout", (t) => /^http:\/\/\S+\n/m.test(t)))![1];
    const get = async (path: string) => {
      const response = await fetch(new URL(path, url));
      if (!response.ok) throw new Error(`serve: ${path} answered ${response.status}`);
      return response.text();
    };
    await get("/api/sessions");
    await get("/metrics");
    // Its headers and full-text index are read in the background once it is quiet: wait for that.
    const started = performance.now();
    while (!/^pi_session_warmup_done 1$/m.test(await get("/metrics"))) {
      if (performance.now() - started > SERVE_WARMUP_MS) throw new Error(`serve: warm-up not over after ${SERVE_WARMUP_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    await get("/api/sessions");
    await get("/metrics");
    return peakOf(child.pid!);
  } finally {
    child.removeAllListeners("exit");
    child.kill("SIGTERM");
  }
}

async function mcp(binary: string, agentDir: string, env: Record<string, string>): Promise<number> {
  const child = spawn(binary, ["--agent-dir", agentDir, "mcp", "--all"], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "ignore"] });
  try {
    const send = (id: number, method: string, params: object) => child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    const answered = (id: number) => (t: string) => t.split("\n").some((line) => line.startsWith("{") && JSON.parse(line).id === id);
    send(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
    await until(child, "stdout", answered(1));
    send(2, "tools/call", { name: "search_sessions", arguments: { query: WALK_WORD } });
    await until(child, "stdout", answered(2));
    return peakOf(child.pid!);
  } finally {
    child.removeAllListeners("exit");
    child.stdin!.end();
    child.kill("SIGTERM");
  }
}

/** How long the picker is given to load the stored message texts once its list is complete. */
const PICK_TEXTS_MS = 8000;

/** The picker in a pseudo-terminal (util-linux `script`) until its list is complete and the texts are in. */
async function pick(binary: string, agentDir: string, env: Record<string, string>): Promise<number> {
  const child = spawn("script", ["-qfec", `exec '${binary}' pick --all`, "/dev/null"], {
    env: { ...process.env, ...env, PI_CODING_AGENT_DIR: agentDir, TERM: "xterm-256color", NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "ignore"],
  });
  try {
    await until(child, "stdout", (t) => t.includes("◉ All"));
    // The message texts for searching load after the list (from the catalog: `list --search`
    // stored them); then a word typed filters by them.
    await new Promise((resolve) => setTimeout(resolve, PICK_TEXTS_MS));
    child.stdin!.write(WALK_WORD);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const inner = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/).map(Number)[0];
    return peakOf(inner);
  } finally {
    child.removeAllListeners("exit");
    child.stdin!.write("\x1b\x1b");
    setTimeout(() => child.kill("SIGKILL"), 2000).unref();
  }
}

/** Peak RSS of every walker (those of `only`, if given) over `agentDir`, the catalog in `cacheDir`. */
export async function measureWalkers(binary: string, agentDir: string, cacheDir: string, options: { only?: string[]; cold?: boolean } = {}): Promise<WalkerResult[]> {
  const env = { XDG_CACHE_HOME: cacheDir };
  const results: WalkerResult[] = [];
  const wanted = (name: string) => (options.only ? options.only.some((o) => name.startsWith(o)) : name !== "index (cold)" || options.cold);
  const command = (name: string, argv: string[], extra: Record<string, string> = {}) => {
    if (!wanted(name)) return;
    const r = timed([binary, ...argv], { ...env, ...extra });
    if (r.code !== 0 && r.code !== 1) throw new Error(`${name} exited ${r.code}`);
    results.push({ name, peakMb: r.peakMb, seconds: r.seconds });
  };
  const server = async (name: string, work: () => Promise<number>) => {
    if (!wanted(name)) return;
    const started = performance.now();
    const peakMb = await work();
    results.push({ name, peakMb, seconds: (performance.now() - started) / 1000 });
  };
  const a = ["--agent-dir", agentDir];
  if (wanted("index (cold)")) rmSync(cacheDir, { recursive: true, force: true });
  command("index (cold)", [...a, "index"]);
  // Every other walker finds the catalog current.
  if (!wanted("index (cold)")) timed([binary, ...a, "index"], env);
  command("index (warm)", [...a, "index"]);
  command("check <dir>", ["check", join(agentDir, "sessions")]);
  command("files --all", [...a, "files", "--all", WALK_PATH]);
  command("search --all (scan)", [...a, "search", WALK_WORD, "--all"], { PI_SESSION_CATALOG: "off" });
  command("search --all (warm)", [...a, "search", WALK_WORD, "--all"]);
  if (wanted("pick --all")) timed([binary, ...a, "list", "--all", "--search", WALK_WORD], env);
  await server("pick --all", () => pick(binary, agentDir, env));
  await server("serve", () => serve(binary, agentDir, env));
  await server("mcp search_sessions", () => mcp(binary, agentDir, env));
  command("otel --dry-run --all", [...a, "otel", "--dry-run", "--all"]);
  return results;
}

/** `--slope SMALL.jsonl N LARGE.jsonl M`: the slope table of two runs' printed lines. */
function slopeOfLogs([smallLog, smallN, largeLog, largeN]: string[]): string {
  const read = (path: string) => readFileSync(path, "utf8").split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as WalkerResult);
  return slopeTable({ sessions: Number(smallN), results: read(smallLog) }, { sessions: Number(largeN), results: read(largeLog) }).join("\n");
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "--slope") {
  console.log(slopeOfLogs(process.argv.slice(3)));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const only = flag("--only")?.split(",");
  const cold = args.includes("--cold");
  const [binary, agentDir, cacheDir] = args.filter((a) => a !== "--cold");
  if (!binary || !agentDir || !cacheDir) throw new Error("usage: walkers.ts BINARY AGENT_DIR CACHE_DIR [--only a,b] [--cold]");
  for (const r of await measureWalkers(binary, agentDir, cacheDir, { only, cold })) console.log(JSON.stringify(r));
}

/** Markdown lines: each walker's peak RSS on the small and the large corpus, and the slope in bytes per session. */
export function slopeTable(small: { sessions: number; results: WalkerResult[] }, large: { sessions: number; results: WalkerResult[] }): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const lines = [
    `| walker | peak RSS, ${n(small.sessions)} sessions | peak RSS, ${n(large.sessions)} sessions | slope (bytes/session) | ≤ 2 KB |`,
    "|---|---:|---:|---:|:---:|",
  ];
  for (const a of small.results) {
    const b = large.results.find((r) => r.name === a.name);
    if (!b) continue;
    const slope = ((b.peakMb - a.peakMb) * 1024 * 1024) / (large.sessions - small.sessions);
    lines.push(`| ${a.name} | ${a.peakMb.toFixed(0)} MB | ${b.peakMb.toFixed(0)} MB | ${n(Math.round(slope))} | ${slope <= 2048 ? "yes" : "**no**"} |`);
  }
  return lines;
}
