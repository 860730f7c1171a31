/**
 * Writes the listing benchmark corpus (SPEC §7: "2,400 sessions (208 MB) of many projects") with the
 * reference's writer into `<agentDir>/sessions/--<cwd>--/`, as pi lays them out: 40 projects with a
 * skewed number of sessions each, sizes log-normal around ~87 KB (a few KB up to a few MB), some
 * named, some branched, and file mtimes spread over 90 days so the listing order is meaningful.
 *
 *   npx tsx scripts/bench/gen-list-corpus.ts [AGENT_DIR] [--sessions N] [--total-mb N] [--force]
 *
 * AGENT_DIR defaults to `.cache/bench/agent`. A marker `AGENT_DIR/corpus.json` records the options
 * and the bytes written; a later run with the same options skips the work while the files are there.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  getDefaultSessionDir,
  SessionManager,
} from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { makeRand, MODELS, words, writeTurn } from "../gen-big-session.ts";
import type { Rand } from "../seeded-random.ts";

export const CORPUS_VERSION = 2;

export interface ListCorpusOptions {
  seed?: number;
  sessions?: number;
  projects?: number;
  /** Target bytes of all session files together. */
  totalBytes?: number;
  verbose?: boolean;
  force?: boolean;
}

export interface ListCorpusInfo {
  agentDir: string;
  sessionsDir: string;
  sessions: number;
  projects: number;
  bytes: number;
  cached: boolean;
}

const DEFAULTS = { seed: 2400, sessions: 2400, projects: 40, totalBytes: 208e6 };

const PROJECT_ROOTS = ["/home/dev", "/home/dev/work", "/srv/repos", "/Users/sam/code", "/home/dev/with space"];
const PROJECT_NAMES = ["api", "web", "cli", "infra", "docs", "ml-lab", "pi-session", "game", "blog", "ünïcode-app"];
const NAMES = ["Fix flaky test", "Refactor tree walk", "Release prep", "日本語のセッション", "Perf: list cache"];

function gaussian(r: Rand): number {
  return Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
}

/** Writes one session of about `target` bytes for `cwd`; returns its path (also used by gen-scale-corpus.ts). */
export function writeSession(r: Rand, agentDir: string, cwd: string, target: number): string {
  const sm = SessionManager.create(cwd, getDefaultSessionDir(cwd, agentDir));
  let model = r.pick(MODELS);
  if (r.chance(0.5)) sm.appendModelChange(model[0], model[1]);
  if (r.chance(0.3)) sm.appendThinkingLevelChange(r.pick(["low", "medium", "high"]));
  // A turn costs about 2.5 KB of messages and usage plus ~1.35 tool results of `chars` each.
  const turns = Math.max(1, Math.min(80, Math.round(target / r.int(4_000, 12_000))));
  const chars = Math.max(100, Math.round((target / turns - 2_500) / 1.35));
  const ends: string[] = [];
  for (let t = 0; t < turns; t++) {
    if (t === 1 && r.chance(0.3)) sm.appendSessionInfo(r.pick(NAMES));
    if (t > 2 && r.chance(0.03)) {
      model = r.pick(MODELS);
      sm.appendModelChange(model[0], model[1]);
    }
    if (ends.length > 2 && r.chance(0.04)) sm.branch(r.pick(ends)); // continue from an earlier turn
    ends.push(writeTurn(sm, r, model, chars).end);
    if (r.chance(0.02)) sm.appendLabelChange(r.pick(ends), "checkpoint");
  }
  return sm.getSessionFile() as string;
}

export function generateListCorpus(agentDir: string, opts: ListCorpusOptions = {}): ListCorpusInfo {
  agentDir = resolve(agentDir);
  const options = {
    seed: opts.seed ?? DEFAULTS.seed,
    sessions: opts.sessions ?? DEFAULTS.sessions,
    projects: opts.projects ?? DEFAULTS.projects,
    totalBytes: opts.totalBytes ?? DEFAULTS.totalBytes,
  };
  const sessionsDir = join(agentDir, "sessions");
  const markerPath = join(agentDir, "corpus.json");
  if (!opts.force && existsSync(markerPath)) {
    try {
      const meta = JSON.parse(readFileSync(markerPath, "utf8"));
      if (meta.version === CORPUS_VERSION && JSON.stringify(meta.options) === JSON.stringify(options)) {
        const files = readdirSync(sessionsDir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
        if (files.length === meta.sessions) return { ...meta.info, cached: true };
      }
    } catch {
      // regenerate
    }
  }
  const log = (s: string) => opts.verbose && process.stderr.write(`${s}\n`);
  rmSync(sessionsDir, { recursive: true, force: true });
  rmSync(markerPath, { force: true });
  mkdirSync(sessionsDir, { recursive: true });

  const r = makeRand(options.seed);
  const cwds = Array.from({ length: options.projects }, (_, i) => `${r.pick(PROJECT_ROOTS)}/${r.pick(PROJECT_NAMES)}-${i}`);
  // Skewed: a few projects hold most sessions (weight ~ 1/rank).
  const weights = cwds.map((_, i) => 1 / (i + 1) + 0.02);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const pickCwd = () => {
    let x = r.next() * weightSum;
    for (let i = 0; i < cwds.length; i++) if ((x -= weights[i]) < 0) return cwds[i];
    return cwds[cwds.length - 1];
  };
  // Log-normal sizes (sigma 1.1), scaled to the total, clamped to [2 KB, 4 MB].
  const raw = Array.from({ length: options.sessions }, () => Math.exp(1.1 * gaussian(r)));
  // 0.96: measured, the per-turn overhead and the 2 KB floor add about 4% to the targets.
  const scale = (0.96 * options.totalBytes) / raw.reduce((a, b) => a + b, 0);
  const targets = raw.map((x) => Math.min(4e6, Math.max(2_000, x * scale)));

  let bytes = 0;
  const now = Date.UTC(2025, 10, 1) / 1000;
  for (let i = 0; i < options.sessions; i++) {
    const file = writeSession(r, agentDir, i < options.projects ? cwds[i] : pickCwd(), targets[i]);
    bytes += statSync(file).size;
    const mtime = now - r.int(0, 90 * 86_400);
    utimesSync(file, mtime, mtime);
    if ((i + 1) % 200 === 0) log(`${i + 1}/${options.sessions} sessions, ${(bytes / 1e6).toFixed(0)} MB`);
  }
  const info: ListCorpusInfo = { agentDir, sessionsDir, sessions: options.sessions, projects: options.projects, bytes, cached: false };
  writeFileSync(markerPath, `${JSON.stringify({ version: CORPUS_VERSION, options, sessions: options.sessions, info }, null, 2)}\n`);
  return info;
}

export const DEFAULT_AGENT_DIR = fileURLToPath(new URL("../../.cache/bench/agent", import.meta.url));

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  let dir = DEFAULT_AGENT_DIR;
  const opts: ListCorpusOptions = { verbose: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--sessions") opts.sessions = Number(argv[++i]);
    else if (a === "--total-mb") opts.totalBytes = Number(argv[++i]) * 1e6;
    else if (a === "--seed") opts.seed = Number(argv[++i]);
    else if (a === "--force") opts.force = true;
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}`);
    else dir = resolve(a);
  }
  const started = performance.now();
  const info = generateListCorpus(dir, opts);
  console.log(
    `${info.sessionsDir}: ${info.sessions} sessions in ${info.projects} projects, ${(info.bytes / 1e6).toFixed(1)} MB` +
      (info.cached ? " [cached]" : ` [written in ${((performance.now() - started) / 1000).toFixed(1)} s]`),
  );
}
