/**
 * Writes the big benchmark session (SPEC §7: "a 90 MB, 11k-entry session") with the reference's own
 * writer, pi 1.6.0's SessionManager: 2,500 turns of user message, assistant tool calls with usage,
 * ~26 KB tool results and a final assistant answer; 20 short side branches off the main line,
 * 5 compactions along it, model and thinking-level changes, labels and a session name. The file ends
 * on the main line, so the default leaf (the last entry) sits at the end of a ~10k-entry path.
 *
 * Content comes from a seeded PRNG; ids and entry timestamps come from the reference (random), so a
 * seed repeats shapes and sizes, not bytes.
 *
 *   npx tsx scripts/gen-big-session.ts [OUT.jsonl] [--seed N] [--turns N] [--force]
 *
 * OUT defaults to `.cache/bench/big-session.jsonl`. A marker `OUT.meta.json` records the options and
 * the size written; a later run with the same options skips the work while OUT still has that size.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
// The package's "exports" hides dist/, so the reference is imported by path.
import { SessionManager } from "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { type ClockShape, makeRand as makeSeededRand, type Rand } from "./seeded-random.ts";

/** Bump when the shape of the generated content changes, to invalidate cached files. */
export const GENERATOR_VERSION = 2;

export interface BigSessionOptions {
  seed?: number;
  /** Conversation turns in all, side-branch turns included. */
  turns?: number;
  /** Side branches: each goes back to an earlier turn end on the main line and runs a few turns. */
  branches?: number;
  /** Compactions along the main line. */
  compactions?: number;
  /** Average characters of text in one tool result. */
  toolOutputChars?: number;
  /** The `cwd` recorded in the header. */
  cwd?: string;
  /** Log progress to stderr. */
  verbose?: boolean;
}

export interface BigSessionInfo {
  path: string;
  size: number;
  /** Entries after the header. */
  entries: number;
  /** Entries on the path from the root to the last entry (the default leaf). */
  mainPathEntries: number;
  /** True when an existing file was reused. */
  cached: boolean;
}

const DEFAULTS: Required<Omit<BigSessionOptions, "verbose">> = {
  seed: 90,
  turns: 2500,
  branches: 20,
  compactions: 5,
  toolOutputChars: 23_500,
  cwd: "/home/dev/big-project",
};

// ---------------------------------------------------------------- seeded content

/** The clock of this generator's `Rand`. */
const CLOCK: ClockShape = { start: Date.UTC(2025, 8, 1), step: [500, 60_000] };

export function makeRand(seed: number): Rand {
  return makeSeededRand(seed, CLOCK);
}

const WORDS = [
  "the", "parser", "session", "tree", "branch", "fix", "test", "compaction", "context", "leaf", "entry",
  "model", "label", "fork", "usage", "tokens", "cache", "stream", "chunk", "line", "buffer", "decode",
  "error", "retry", "timeout", "index", "path", "walk", "parent", "child", "summary", "header", "naïve",
  "refactor", "why", "does", "this", "fail", "when", "we", "read", "a", "large", "file", "日本語", "🚀",
];
const IDENTS = ["entry", "parentId", "leafId", "byId", "lines", "chunk", "offset", "decoder", "result", "issues", "ctx"];
const FILES = ["src/core/read/line-splitter.ts", "src/core/tree/session-tree.ts", "src/session/manager.ts",
  "src/cli/commands/list.ts", "tests/core/read.test.ts", "src/core/context/projection.ts", "README.md"];
const TOOLS = ["read", "bash", "grep", "edit", "find", "ls"];
export const MODELS = [
  ["anthropic", "claude-sonnet-4-5", "anthropic-messages"],
  ["openai", "gpt-5", "openai-responses"],
  ["google", "gemini-2.5-pro", "google-generative-ai"],
] as const;
const THINKING = ["minimal", "low", "high", "xhigh"];
const LABELS = ["checkpoint", "good state", "bug here", "before refactor", "★ keep"];

type Json = Record<string, unknown>;

export function words(r: Rand, min: number, max: number): string {
  const out: string[] = [];
  for (let i = r.int(min, max); i > 0; i--) out.push(r.pick(WORDS));
  return out.join(" ");
}

/** Tool output that looks like source listings, grep hits and test logs: about `chars` characters. */
export function toolOutput(r: Rand, chars: number): string {
  const lines: string[] = [];
  let size = 0;
  const file = r.pick(FILES);
  const style = r.int(0, 2);
  let n = r.int(1, 400);
  while (size < chars) {
    let line: string;
    if (style === 0) {
      const indent = "  ".repeat(r.int(0, 4));
      line = `${String(n++).padStart(5)}\t${indent}const ${r.pick(IDENTS)} = ${r.pick(IDENTS)}.${r.pick(IDENTS)}(${r.int(0, 9999)}); // ${words(r, 1, 6)}`;
    } else if (style === 1) {
      line = `${r.pick(FILES)}:${r.int(1, 2000)}:${r.int(1, 80)}: ${words(r, 3, 12)}`;
    } else {
      line = r.chance(0.9)
        ? `  ✔ ${words(r, 2, 8)} (${r.int(0, 900)}ms)`
        : `  ✖ ${words(r, 2, 8)}\n    AssertionError: expected ${r.int(0, 99)} to equal ${r.int(0, 99)}`;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

export function usage(r: Rand): Json {
  const input = r.int(1_000, 150_000);
  const output = r.int(20, 4_000);
  const cacheRead = r.chance(0.7) ? r.int(0, 120_000) : 0;
  const cacheWrite = r.chance(0.3) ? r.int(0, 9_000) : 0;
  const cost = {
    input: input * 3e-6,
    output: output * 15e-6,
    cacheRead: cacheRead * 3e-7,
    cacheWrite: cacheWrite * 3.75e-6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

/** The reference's methods take its own message types; our builders make plain JSON. */
// deno-lint-ignore no-explicit-any
type Ref = any;

export interface TurnIds {
  user: string;
  end: string;
}

/**
 * One turn through the reference writer: a user message, one assistant message with 1-3 tool
 * calls, their results (about `outputChars` each, ±50%), and a final assistant text.
 */
export function writeTurn(sm: Ref, r: Rand, model: readonly [string, string, string], outputChars: number): TurnIds {
  const [provider, modelId, api] = model;
  const user = sm.appendMessage({
    role: "user",
    content: r.chance(0.8) ? words(r, 6, 60) : [{ type: "text", text: words(r, 6, 60) }],
    timestamp: r.now(),
  });
  const roll = r.next();
  const callCount = roll < 0.7 ? 1 : roll < 0.95 ? 2 : 3;
  const calls = Array.from({ length: callCount }, () => {
    const name = r.pick(TOOLS);
    return {
      type: "toolCall",
      id: `toolu_${r.int(0, 2 ** 40).toString(36)}`,
      name,
      arguments: name === "bash" ? { command: `npm test -- ${r.pick(FILES)}` } : { path: r.pick(FILES) },
    };
  });
  const assistant = (content: Json[], stopReason: string) => ({
    role: "assistant",
    content,
    api,
    provider,
    model: modelId,
    usage: usage(r),
    stopReason,
    timestamp: r.now(),
  });
  sm.appendMessage(assistant([
    ...(r.chance(0.4) ? [{ type: "thinking", thinking: words(r, 10, 80), thinkingSignature: `sig_${r.int(0, 1e9)}` }] : []),
    { type: "text", text: words(r, 4, 30) },
    ...calls,
  ], "toolUse"));
  for (const call of calls) {
    sm.appendMessage({
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: "text", text: toolOutput(r, Math.round(outputChars * (0.5 + r.next()))) }],
      ...(r.chance(0.2) ? { details: { truncated: false, lines: r.int(10, 900) } } : {}),
      isError: r.chance(0.05),
      timestamp: r.now(),
    });
  }
  const end = sm.appendMessage(assistant([{ type: "text", text: words(r, 10, 120) }], "stop"));
  return { user, end };
}

// ---------------------------------------------------------------- the big session

function resolveOptions(opts: BigSessionOptions): Required<Omit<BigSessionOptions, "verbose">> {
  const { verbose: _verbose, ...rest } = opts;
  return { ...DEFAULTS, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
}

function metaPath(path: string): string {
  return `${path}.meta.json`;
}

/** The cached file's info when `path` exists with the size its marker recorded for these options. */
export function cachedBigSession(path: string, opts: BigSessionOptions = {}): BigSessionInfo | null {
  const options = resolveOptions(opts);
  try {
    const meta = JSON.parse(readFileSync(metaPath(path), "utf8"));
    if (meta.generator !== GENERATOR_VERSION) return null;
    if (JSON.stringify(meta.options) !== JSON.stringify(options)) return null;
    if (statSync(path).size !== meta.size) return null;
    return { path, size: meta.size, entries: meta.entries, mainPathEntries: meta.mainPathEntries, cached: true };
  } catch {
    return null;
  }
}

/**
 * Writes the big session to `path` with the reference writer (see the module comment) and returns
 * its size and entry counts. Reuses an existing file written with the same options.
 */
export function generateBigSession(path: string, opts: BigSessionOptions & { force?: boolean } = {}): BigSessionInfo {
  path = resolve(path);
  const options = resolveOptions(opts);
  if (!opts.force) {
    const cached = cachedBigSession(path, opts);
    if (cached) return cached;
  }
  const log = (s: string) => opts.verbose && process.stderr.write(`${s}\n`);
  const r = makeRand(options.seed);
  mkdirSync(dirname(path), { recursive: true });
  const tmpDir = mkdtempSync(join(dirname(path), `.${basename(path)}.tmp-`));
  try {
    const sm: Ref = SessionManager.create(options.cwd, tmpDir);

    // Where the side branches, compactions and changes go, by main-line turn number.
    const branchTurns = Array.from({ length: options.branches }, () => r.int(2, 4));
    const mainTurns = options.turns - branchTurns.reduce((a, b) => a + b, 0);
    const spread = (count: number, offset: number) =>
      new Set(Array.from({ length: count }, (_, i) => Math.floor(((i + offset) * mainTurns) / (count + 1))));
    const branchAt = [...spread(options.branches, 1)];
    const compactAt = spread(options.compactions, 1);
    const modelAt = spread(7, 0.6);
    const thinkingAt = spread(5, 0.3);
    const labelAt = spread(25, 0.45);

    let model: (typeof MODELS)[number] = MODELS[0];
    sm.appendModelChange(model[0], model[1]);
    sm.appendThinkingLevelChange("medium");
    const mainTurnIds: TurnIds[] = [];
    let branchIndex = 0;

    for (let t = 0; t < mainTurns; t++) {
      if (modelAt.has(t) && t > 0) {
        model = MODELS[(MODELS.indexOf(model) + 1) % MODELS.length];
        sm.appendModelChange(model[0], model[1]);
      }
      if (thinkingAt.has(t) && t > 0) {
        sm.appendThinkingLevelChange(r.pick(THINKING));
      }
      if (t === 3) {
        sm.appendSessionInfo("Big benchmark session");
      }
      mainTurnIds.push(writeTurn(sm, r, model, options.toolOutputChars));

      if (labelAt.has(t)) {
        // Labels point at earlier main-line entries; the label entries themselves sit on the path.
        const target = r.pick(mainTurnIds.slice(-50));
        sm.appendLabelChange(r.chance(0.5) ? target.user : target.end, r.pick(LABELS));
      }
      if (compactAt.has(t)) {
        // Keep the last few turns: firstKeptEntryId is the user message 3-8 turns back.
        const kept = mainTurnIds[Math.max(0, mainTurnIds.length - r.int(3, 8))];
        sm.appendCompaction(
          `## Goal\n${words(r, 20, 60)}\n\n## Progress\n${words(r, 40, 150)}\n\n## Next steps\n${words(r, 10, 40)}`,
          kept.user,
          r.int(120_000, 190_000),
          { readFiles: FILES.slice(0, r.int(1, 4)), modifiedFiles: FILES.slice(4, r.int(4, 7)) },
          undefined,
          usage(r),
        );
        log(`compaction after turn ${t} (${sm.getEntryCount()} entries)`);
      }
      if (branchAt[branchIndex] === t && t < mainTurns - 1) {
        // Back to a turn end 1-60 turns ago, a few turns there, then back to the main line's tip.
        const mainLeaf = sm.getLeafId();
        const from = mainTurnIds[Math.max(0, mainTurnIds.length - 1 - r.int(1, 60))];
        sm.branch(from.end);
        for (let b = branchTurns[branchIndex]; b > 0; b--) writeTurn(sm, r, model, options.toolOutputChars);
        if (r.chance(0.5)) sm.appendLabelChange(sm.getLeafId(), "abandoned idea");
        sm.branch(mainLeaf);
        branchIndex++;
      }
      if (t % 250 === 0) log(`turn ${t}/${mainTurns}: ${sm.getEntryCount()} entries`);
    }
    // One more main-line turn, so the file's last entry is the main line's tip whatever came before.
    mainTurnIds.push(writeTurn(sm, r, model, options.toolOutputChars));
    const mainPathEntries = sm.getBranch().length as number;

    const written = sm.getSessionFile() as string;
    const entries = sm.getEntryCount() as number;
    renameSync(written, path);
    const size = statSync(path).size;
    writeFileSync(
      metaPath(path),
      `${JSON.stringify({ generator: GENERATOR_VERSION, options, size, entries, mainPathEntries }, null, 2)}\n`,
    );
    return { path, size, entries, mainPathEntries, cached: false };
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

export const DEFAULT_BIG_SESSION_PATH = fileURLToPath(new URL("../.cache/bench/big-session.jsonl", import.meta.url));

function main(argv: string[]): void {
  let out = DEFAULT_BIG_SESSION_PATH;
  const opts: BigSessionOptions & { force?: boolean } = { verbose: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--seed") opts.seed = Number(argv[++i]);
    else if (a === "--turns") opts.turns = Number(argv[++i]);
    else if (a === "--force") opts.force = true;
    else if (a === "--quiet") opts.verbose = false;
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}`);
    else out = resolve(a);
  }
  const started = performance.now();
  const info = generateBigSession(out, opts);
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${info.path}: ${(info.size / 1e6).toFixed(1)} MB, ${info.entries} entries ` +
      `(${info.mainPathEntries} on the default leaf's path)` + (info.cached ? " [cached]" : ` [written in ${secs} s]`),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
