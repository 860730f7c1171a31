/**
 * Writes the scale corpus (issue 22): by default 25,000 sessions over 300 projects, ~2.5 GB, laid
 * out as pi does (`<agentDir>/sessions/--<cwd>--/`). The bulk is written with the reference's own
 * writer (pi 1.6.0): log-normal sizes, skewed projects, deep branch trees, compactions, branch
 * summaries, labels, names, clones (of the active leaf) and forks (at any entry), file mtimes spread
 * over two years. The giants, five of ~200 MB and one of ~1.2 GB, are chained copies of the 90 MB
 * bench session made by streaming concatenation (see chain-session.ts), each in its own project.
 *
 *   npx tsx scripts/bench/gen-scale-corpus.ts [AGENT_DIR] [--small] [--sessions N] [--projects N]
 *       [--bulk-mb N] [--giants-mb 1200,200,...] [--seed N]
 *
 * Resumable: each project is generated from its own seed and leaves a marker
 * `AGENT_DIR/scale-progress/pNNNN.json` when done; a rerun skips marked projects and redoes the
 * others from scratch (a half-written project folder is emptied first). `--small` is the same shape
 * scaled down (250 sessions, 12 projects, giants of 6 and 1 MB from an 80-turn base) for tests and
 * quick checks. Keep AGENT_DIR outside the repository (e.g. /work/scale-data/agent).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  getDefaultSessionDir,
  SessionManager,
} from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { generateBigSession, makeRand, MODELS, type TurnIds, words, writeTurn } from "../gen-big-session.ts";
import type { Rand } from "../seeded-random.ts";
import { chainSession } from "./chain-session.ts";

export const SCALE_VERSION = 1;

export interface ScaleOptions {
  seed: number;
  sessions: number;
  projects: number;
  /** Target bytes of the bulk sessions together (the giants come on top). */
  bulkBytes: number;
  /** Sizes of the chained giant sessions, one per project from the first. */
  giants: number[];
  /** Options of the base session the giants are chained from (see gen-big-session.ts). */
  base: { turns?: number; branches?: number; compactions?: number; toolOutputChars?: number };
}

export const FULL: ScaleOptions = { seed: 25_000, sessions: 25_000, projects: 300, bulkBytes: 300e6, giants: [1.2e9, 2e8, 2e8, 2e8, 2e8, 2e8], base: {} };
export const SMALL: ScaleOptions = { seed: 250, sessions: 250, projects: 12, bulkBytes: 3e6, giants: [6e6, 1e6, 1e6, 1e6, 1e6, 1e6], base: { turns: 80, branches: 4, compactions: 3, toolOutputChars: 3_000 } };

const ROOTS = ["/home/dev", "/home/dev/work", "/srv/repos", "/Users/sam/code", "/home/dev/with space"];
const NAMES = ["api", "web", "cli", "infra", "docs", "ml-lab", "pi-session", "game", "blog", "ünïcode-app"];
const TITLES = ["Fix flaky test", "Refactor tree walk", "Release prep", "日本語のセッション", "Perf: list cache"];
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);

// deno-lint-ignore no-explicit-any
type Ref = any;

function gaussian(r: Rand): number {
  return Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
}

/** Sessions per project: skewed (weight ~ 1/rank), at least one each, summing to `total`. */
function quotas(total: number, projects: number): number[] {
  const weights = Array.from({ length: projects }, (_, i) => 1 / (i + 1) + 0.05);
  const sum = weights.reduce((a, b) => a + b, 0);
  const q = weights.map((w) => Math.max(1, Math.floor((w / sum) * total)));
  for (let i = 0, left = total - q.reduce((a, b) => a + b, 0); left > 0; i = (i + 1) % projects, left--) q[i]++;
  return q;
}

/** One session of about `target` bytes: turns, maybe a deep branch tree, maybe compactions. */
function writeScaleSession(sm: Ref, r: Rand, target: number): void {
  let model = r.pick(MODELS);
  if (r.chance(0.5)) sm.appendModelChange(model[0], model[1]);
  const turns = Math.max(1, Math.min(200, Math.round(target / r.int(4_000, 12_000))));
  const chars = Math.max(100, Math.round((target / turns - 2_500) / 1.35));
  const deep = r.chance(0.08);
  const compactEvery = r.chance(0.25) ? r.int(3, 12) : 0;
  const done: TurnIds[] = [];
  for (let t = 0; t < turns; t++) {
    if (t === 1 && r.chance(0.3)) sm.appendSessionInfo(r.pick(TITLES));
    if (t > 2 && r.chance(0.03)) {
      model = r.pick(MODELS);
      sm.appendModelChange(model[0], model[1]);
    }
    if (done.length > 2 && r.chance(deep ? 0.35 : 0.04)) {
      const from = r.pick(done).end;
      if (r.chance(0.2)) sm.branchWithSummary(from, words(r, 10, 40));
      else sm.branch(from);
    }
    done.push(writeTurn(sm, r, model, chars));
    if (compactEvery && t % compactEvery === compactEvery - 1) {
      const kept = done[Math.max(0, done.length - r.int(1, 3))];
      sm.appendCompaction(`## Goal\n${words(r, 10, 40)}\n\n## Progress\n${words(r, 20, 80)}`, kept.user, r.int(50_000, 190_000));
    }
    if (r.chance(0.02)) sm.appendLabelChange(r.pick(done).end, "checkpoint");
  }
}

function cwdOf(seed: number, p: number): string {
  const r = makeRand(seed * 7919 + p);
  return `${r.pick(ROOTS)}/${r.pick(NAMES)}-${p}`;
}

/** Writes project `p` (its bulk sessions, then its giant if it has one); returns files and bytes. */
function writeProject(agentDir: string, opts: ScaleOptions, p: number, count: number, meanBytes: number, base: string | null): { files: number; bytes: number } {
  const r = makeRand(opts.seed * 1_000_003 + p);
  const cwd = cwdOf(opts.seed, p);
  const dir = getDefaultSessionDir(cwd, agentDir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  while (paths.length < count) {
    // Log-normal (sigma 1.1, mean 1 after the -0.605 shift), clamped to [2 KB, 4 MB].
    const target = Math.min(4e6, Math.max(2_000, meanBytes * Math.exp(1.1 * gaussian(r) - 0.605)));
    const sm: Ref = SessionManager.create(cwd, dir);
    writeScaleSession(sm, r, target);
    paths.push(sm.getSessionFile());
    if (paths.length < count && r.chance(0.12)) {
      // A clone of the active leaf or a fork at any entry; the manager moves on to the new file.
      const clone = r.chance(0.4);
      const entries = sm.getEntries() as { id: string }[];
      sm.createBranchedSession(clone ? sm.getLeafId() : r.pick(entries).id);
      writeTurn(sm, r, MODELS[0], 500);
      paths.push(sm.getSessionFile());
    }
    if (paths.length < count && paths.length > 1 && r.chance(0.03)) {
      const fork: Ref = SessionManager.forkFrom(r.pick(paths.slice(0, -1)), cwd, dir);
      writeTurn(fork, r, MODELS[1], 800);
      paths.push(fork.getSessionFile());
    }
  }
  if (base && p < opts.giants.length) {
    const created = NOW - r.int(1, 30) * DAY;
    const id = crypto.randomUUID();
    const out = join(dir, `${new Date(created).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`);
    chainSession(base, out, { targetBytes: opts.giants[p], sessionId: id, cwd, created });
    paths.push(out);
  }
  let bytes = 0;
  for (const path of paths) {
    bytes += statSync(path).size;
    const mtime = (NOW - r.int(0, 730) * DAY - r.int(0, DAY)) / 1000;
    utimesSync(path, mtime, mtime);
  }
  return { files: paths.length, bytes };
}

export function generateScaleCorpus(agentDir: string, opts: ScaleOptions, log: (s: string) => void = () => {}): { sessions: number; bytes: number; projects: number } {
  agentDir = resolve(agentDir);
  const progress = join(agentDir, "scale-progress");
  const optionsPath = join(progress, "options.json");
  const key = JSON.stringify({ version: SCALE_VERSION, ...opts });
  if (existsSync(optionsPath) && readFileSync(optionsPath, "utf8") !== key) {
    throw new Error(`${agentDir} holds a scale corpus made with other options; remove it or pick another directory`);
  }
  mkdirSync(progress, { recursive: true });
  writeFileSync(optionsPath, key);
  let base: string | null = null;
  if (opts.giants.length) {
    base = join(agentDir, "giant-base.jsonl");
    const info = generateBigSession(base, { ...opts.base, verbose: false });
    log(`giant base: ${(info.size / 1e6).toFixed(1)} MB${info.cached ? " [cached]" : ""}`);
  }
  const q = quotas(opts.sessions - Math.min(opts.giants.length, opts.projects), opts.projects);
  const meanBytes = opts.bulkBytes / (opts.sessions - opts.giants.length);
  let sessions = 0;
  let bytes = 0;
  for (let p = 0; p < opts.projects; p++) {
    const marker = join(progress, `p${String(p).padStart(4, "0")}.json`);
    let done: { files: number; bytes: number };
    if (existsSync(marker)) done = JSON.parse(readFileSync(marker, "utf8"));
    else {
      done = writeProject(agentDir, opts, p, q[p], meanBytes, base);
      writeFileSync(marker, JSON.stringify(done));
    }
    sessions += done.files;
    bytes += done.bytes;
    if (p % 25 === 24 || p === opts.projects - 1) log(`${p + 1}/${opts.projects} projects, ${sessions} sessions, ${(bytes / 1e6).toFixed(0)} MB`);
  }
  return { sessions, bytes, projects: opts.projects };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  let dir = "";
  let opts = { ...FULL };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--small") opts = { ...SMALL }; // first, before the options it scales
    else if (a === "--sessions") opts.sessions = Number(argv[++i]);
    else if (a === "--projects") opts.projects = Number(argv[++i]);
    else if (a === "--bulk-mb") opts.bulkBytes = Number(argv[++i]) * 1e6;
    else if (a === "--giants-mb") opts.giants = argv[++i].split(",").filter(Boolean).map((x) => Number(x) * 1e6);
    else if (a === "--seed") opts.seed = Number(argv[++i]);
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}`);
    else dir = resolve(a);
  }
  if (!dir) throw new Error("usage: gen-scale-corpus.ts AGENT_DIR [--small] [...] (keep AGENT_DIR outside the repository)");
  const started = performance.now();
  const info = generateScaleCorpus(dir, opts, (s) => process.stderr.write(`${s}\n`));
  const files = readdirSync(join(dir, "sessions"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).length;
  console.log(`${dir}: ${info.sessions} sessions (${files} files) in ${info.projects} projects, ${(info.bytes / 1e6).toFixed(0)} MB [${((performance.now() - started) / 1000).toFixed(0)} s]`);
}
