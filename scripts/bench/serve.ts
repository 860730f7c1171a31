/**
 * The `serve` load and browser bench (issue 19), run by `npx tsx scripts/bench.ts --only serve`
 * (or on its own: `npx tsx scripts/bench/serve.ts`). Against the compiled binary serving the
 * 2,400-session corpus plus the 90 MB session, on loopback:
 * - GET /api/sessions?limit=50: the first (cold catalog) answer, then the warm p50 with one
 *   connection (autocannon, 10 s), then 50 connections for 20 s: p99, errors, requests/s;
 * - the server's peak RSS (VmHWM) after that load, after the 90 MB session's page, and over all of it;
 * - Chromium: the 90 MB session's page, from navigation to its first entries on screen (three
 *   loads), then until its facts and tree (fetched after the first entries) are drawn;
 * - Chromium: a line appended to an open session's file, until it is on screen (median of 5).
 * Prints a markdown table (and returns it to bench.ts).
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { compileArgs } from "../compile.ts";
import { generateBigSession } from "../gen-big-session.ts";
import { generateListCorpus } from "./gen-list-corpus.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CACHE = join(ROOT, ".cache", "bench");
const BUN = join(ROOT, "node_modules/.bin/bun");
const CHROMIUM = "/usr/bin/chromium";

/** An agent dir holding the corpus (hard links: nothing copied) and the 90 MB session. */
function serveAgentDir(): { agentDir: string; bigId: string; liveFile: string; liveId: string; liveLeaf: string } {
  const corpus = join(CACHE, "agent");
  generateListCorpus(corpus);
  const big = generateBigSession(join(CACHE, "big-session.jsonl"));
  const agentDir = join(CACHE, "serve-agent");
  rmSync(agentDir, { recursive: true, force: true });
  const from = join(corpus, "sessions");
  for (const project of readdirSync(from)) {
    mkdirSync(join(agentDir, "sessions", project), { recursive: true });
    for (const file of readdirSync(join(from, project))) {
      try {
        linkSync(join(from, project, file), join(agentDir, "sessions", project, file));
      } catch {
        copyFileSync(join(from, project, file), join(agentDir, "sessions", project, file));
      }
    }
  }
  const bigHeader = JSON.parse(readFileSync(big.path, "utf8").slice(0, 4096).split("\n")[0]);
  mkdirSync(join(agentDir, "sessions", "--bench-big--"), { recursive: true });
  linkSync(big.path, join(agentDir, "sessions", "--bench-big--", `2026-01-01T00-00-00-000Z_${bigHeader.id}.jsonl`));
  // The live case appends: a session of its own, copied, so no corpus file changes.
  const liveId = "0bench00-live-4000-8000-000000000001";
  const liveFile = join(agentDir, "sessions", "--bench-live--", `2026-01-02T00-00-00-000Z_${liveId}.jsonl`);
  mkdirSync(join(agentDir, "sessions", "--bench-live--"), { recursive: true });
  const header = { type: "session", version: 3, id: liveId, timestamp: "2026-01-02T00:00:00.000Z", cwd: "/bench/live" };
  const first = { type: "message", id: "live0000", parentId: null, timestamp: "2026-01-02T00:00:01.000Z", message: { role: "user", content: "start", timestamp: 1 } };
  appendFileSync(liveFile, JSON.stringify(header) + "\n" + JSON.stringify(first) + "\n");
  return { agentDir, bigId: bigHeader.id, liveFile, liveId, liveLeaf: "live0000" };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function startServer(binary: string, agentDir: string): Promise<{ url: string; child: ChildProcess }> {
  const cache = join(CACHE, "serve-cache");
  rmSync(cache, { recursive: true, force: true });
  const child = spawn(binary, ["--agent-dir", agentDir, "serve", "--port", "0"], { env: { ...process.env, XDG_CACHE_HOME: cache }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += String(d);
      const url = /^(http:\/\/\S+)\n/m.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}`)));
  });
}

/** The part of autocannon's result used here (it ships no types). */
interface LoadResult {
  latency: { p50: number; p99: number };
  requests: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number }) => Promise<LoadResult>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function serveBench(): Promise<string> {
  const binary = join(CACHE, "pi-session-serve");
  execFileSync(BUN, compileArgs(binary), { cwd: ROOT, stdio: "ignore" });
  const { agentDir, bigId, liveFile, liveId } = serveAgentDir();
  const { url, child } = await startServer(binary, agentDir);
  const rows: [string, string, string][] = [];
  try {
    const list = `${url}api/sessions?limit=50`;
    let started = performance.now();
    const first = await fetch(list);
    await first.arrayBuffer();
    rows.push(["GET /api/sessions?limit=50, first (catalog built cold)", `${(performance.now() - started).toFixed(0)} ms`, ""]);
    // @ts-ignore: autocannon ships no types (see LoadResult)
    const autocannon = (await import("autocannon")).default as Autocannon;
    const warm = await autocannon({ url: list, connections: 1, duration: 10 });
    rows.push(["… warm, 1 connection, 10 s: p50", `${warm.latency.p50} ms`, "≤ 20 ms"]);
    const load = await autocannon({ url: list, connections: 50, duration: 20 });
    const errors = load.errors + load.timeouts + load.non2xx;
    rows.push(["… 50 connections × 20 s: p99", `${load.latency.p99} ms`, "≤ 250 ms"]);
    rows.push(["… 50 connections × 20 s: errors (incl. timeouts, non-2xx)", String(errors), "0"]);
    rows.push(["… 50 connections × 20 s: requests/s (mean)", load.requests.average.toFixed(0), ""]);
    const afterLoad = peakRssMb(child.pid!);

    if (existsSync(CHROMIUM)) {
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
      try {
        const page = await browser.newPage();
        const bigSize = statSync(join(CACHE, "big-session.jsonl")).size;
        const times: number[] = [];
        for (let i = 0; i < 3; i++) {
          started = performance.now();
          await page.goto(`${url}sessions/${bigId}`, { waitUntil: "commit" });
          await page.waitForSelector("#entries .entry", { timeout: 60_000 });
          times.push(performance.now() - started);
        }
        // The page is whole once its facts and tree (fetched after the first entries) are drawn.
        started = performance.now();
        await page.waitForSelector("#facts dt", { timeout: 60_000 });
        // The sidebar (the export viewer's) replaces the tree the server drew once it has its rows.
        await page.waitForSelector(".session > .side .tree-row", { timeout: 60_000 });
        const whole = performance.now() - started;
        const html = await page.evaluate(() => document.documentElement.outerHTML.length);
        rows.push([`90 MB session (${(bigSize / 1e6).toFixed(0)} MB) page: first entries on screen, first load`, `${times[0].toFixed(0)} ms`, "≤ 1 s"]);
        rows.push(["… median of the next loads", `${median(times.slice(1)).toFixed(0)} ms`, "≤ 1 s"]);
        rows.push(["… then its facts and tree drawn (fetched after the first entries)", `${whole.toFixed(0)} ms more`, ""]);
        rows.push(["… page size in the browser (HTML, tree included)", `${(html / 1e6).toFixed(2)} MB`, "paged, not the file"]);
        rows.push(["Server peak RSS so far (the 90 MB session's page, facts and tree)", `${peakRssMb(child.pid!).toFixed(0)} MB`, "≤ 150 MB"]);
        await page.goto(`${url}sessions/${liveId}`);
        await page.waitForSelector("#live.on");
        const live: number[] = [];
        let parent = "live0000";
        for (let i = 1; i <= 5; i++) {
          const id = `live${String(i).padStart(4, "0")}`;
          const line = { type: "message", id, parentId: parent, timestamp: `2026-01-02T00:00:0${i + 1}.000Z`, message: { role: "user", content: `appended ${i}`, timestamp: i } };
          started = performance.now();
          appendFileSync(liveFile, JSON.stringify(line) + "\n");
          await page.waitForSelector(`#entry-${id}`, { timeout: 10_000 });
          live.push(performance.now() - started);
          parent = id;
        }
        rows.push(["Live append → on screen (median of 5)", `${median(live).toFixed(0)} ms`, "≤ 1 s"]);
      } finally {
        await browser.close();
      }
    } else {
      rows.push(["Chromium cases", "skipped", `${CHROMIUM} missing`]);
    }
    rows.push(["Server peak RSS after the list load (before any session page)", `${afterLoad.toFixed(0)} MB`, "≤ 150 MB"]);
    rows.push(["Server peak RSS (VmHWM, the whole run)", `${peakRssMb(child.pid!).toFixed(0)} MB`, "≤ 150 MB"]);
  } finally {
    child.kill("SIGTERM");
  }
  const sessions = readdirSync(join(agentDir, "sessions"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).length;
  return [
    `serve: the compiled binary on loopback over ${sessions.toLocaleString("en-US")} sessions (the list corpus, the 90 MB session, one live one); autocannon ${"9.0.0"}; Chromium headless`,
    "",
    "| measurement | result | target |",
    "|---|---|---|",
    ...rows.map(([what, result, target]) => `| ${what} | ${result} | ${target} |`),
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await serveBench());
