/**
 * Writes a corpus of pi sessions with the reference's own writer (pi 1.6.0), shaped by a seeded PRNG,
 * plus hand-made v1/v2 and CRLF files. Ids and times come from the reference: a seed repeats shapes, not bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
// The package's "exports" hides dist/, so the reference is imported by path.
import {
  getDefaultSessionDir,
  SessionManager,
} from "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { type ClockShape, makeRand as makeSeededRand, type Rand } from "./seeded-random.ts";

export interface GenerateOptions {
  /** Agent dir: sessions go to `<dir>/sessions/--<cwd>--/`, as in pi. */
  dir: string;
  count: number;
  seed: number;
  /** Working directories to spread the sessions over. */
  projects?: string[];
}

const DEFAULT_PROJECTS = [
  "/home/dev/alpha",
  "/home/dev/beta.app",
  "/srv/repos/gamma-service",
  "/home/dev/with space/ünïcode",
  "/work",
];

type Json = Record<string, unknown>;
type Entry = Json & { id: string; type: string; message?: Json };

/** The clock of this generator's `Rand`. */
const CLOCK: ClockShape = { start: Date.UTC(2025, 5, 1), step: [200, 90_000] };

function makeRand(seed: number): Rand {
  return makeSeededRand(seed, CLOCK);
}

const WORDS = [
  "refactor", "the", "parser", "session", "tree", "branch", "fix", "test", "why", "does", "compaction",
  "fail", "naïve", "日本語", "emoji 🚀", '"quoted"', "C:\\path\\file", "tab\there", "line\nbreak", "<tag>",
  "cost", "model", "context", "leaf", "label", "fork", "clone", "deno", "bun", "node", "&amp;",
];
const MODELS = [
  ["anthropic", "claude-sonnet-4-5", "anthropic-messages"],
  ["openai", "gpt-5", "openai-responses"],
  ["google", "gemini-2.5-pro", "google-generative-ai"],
] as const;
const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls", "mcp__search"];
const LABELS = ["checkpoint", "good", "bug here", "v1", "todo: revisit", "★"];
const NAMES = ["Fix parser", "Refactor tree\nwalk", "  padded name  ", "日本語のセッション", "release prep"];
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function text(r: Rand, min = 2, max = 18): string {
  if (r.chance(0.02)) return "long ".repeat(r.int(300, 1200));
  const words: string[] = [];
  for (let i = r.int(min, max); i > 0; i--) words.push(r.pick(WORDS));
  return words.join(" ");
}

function usage(r: Rand): Json {
  const input = r.int(0, 40_000);
  const output = r.int(0, 4_000);
  const cacheRead = r.chance(0.6) ? r.int(0, 90_000) : 0;
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

function userMessage(r: Rand): Json {
  const roll = r.next();
  const content = roll < 0.55
    ? text(r)
    : [
      { type: "text", text: text(r) },
      ...(roll < 0.8 ? [{ type: "image", data: PNG, mimeType: "image/png" }] : []),
      ...(r.chance(0.3) ? [{ type: "text", text: text(r) }] : []),
    ];
  return { role: "user", content, timestamp: r.now() };
}

function assistantMessage(r: Rand, calls: Json[], stopReason: string): Json {
  const [provider, model, api] = r.pick(MODELS);
  const content: Json[] = [];
  const empty = (stopReason === "error" || stopReason === "aborted") && r.chance(0.5);
  if (!empty) {
    if (r.chance(0.4)) content.push({ type: "thinking", thinking: text(r), thinkingSignature: `sig${r.int(0, 1e6)}` });
    if (r.chance(0.85) || calls.length === 0) content.push({ type: "text", text: text(r, 3, 40) });
    content.push(...calls);
  }
  return {
    role: "assistant",
    content,
    api,
    provider,
    model,
    ...(r.chance(0.2) ? { responseModel: `${model}-20250101` } : {}),
    usage: usage(r),
    stopReason,
    ...(stopReason === "error" ? { errorMessage: r.pick(["overloaded_error", "HTTP 500: boom", "rate limit"]) } : {}),
    timestamp: r.now(),
  };
}

function toolResult(r: Rand, call: Json): Json {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [
      { type: "text", text: r.chance(0.1) ? "" : text(r, 1, 60) },
      ...(r.chance(0.05) ? [{ type: "image", data: PNG, mimeType: "image/png" }] : []),
    ],
    ...(r.chance(0.3) ? { details: { lines: r.int(1, 500) } } : {}),
    ...(r.chance(0.2) ? { usage: usage(r) } : {}),
    isError: r.chance(0.15),
    timestamp: r.now(),
  };
}

function bashExecution(r: Rand): Json {
  const cancelled = r.chance(0.15);
  const truncated = r.chance(0.15);
  return {
    role: "bashExecution",
    command: r.pick(["ls -la", "npm test", "git status", "cat big.log"]),
    output: r.chance(0.2) ? "" : text(r, 1, 30),
    exitCode: cancelled ? r.pick([null, undefined]) : r.pick([0, 0, 2, 1, null]),
    cancelled,
    truncated,
    ...(truncated && r.chance(0.7) ? { fullOutputPath: `/tmp/pi-bash-${r.int(1, 9999)}.log` } : {}),
    timestamp: r.now(),
    ...(r.chance(0.25) ? { excludeFromContext: r.chance(0.8) } : {}),
  };
}

function customMessage(r: Rand): Json {
  return {
    role: "custom",
    customType: r.pick(["ext-note", "reminder"]),
    content: r.chance(0.5) ? text(r) : [{ type: "text", text: text(r) }],
    display: r.chance(0.5),
    ...(r.chance(0.4) ? { details: { n: r.int(0, 9) } } : {}),
    timestamp: r.now(),
  };
}

function systemMessage(r: Rand): Json {
  return {
    role: "system",
    content: r.chance(0.6) ? text(r, 5, 30) : [{ type: "text", text: text(r) }, { type: "text", text: text(r) }],
    ...(r.chance(0.3) ? { sections: { rules: text(r), ...(r.chance(0.3) ? { old: null } : {}) } } : {}),
    ...(r.chance(0.3)
      ? { toolsAdded: [{ name: r.pick(TOOLS), description: text(r), parameters: { type: "object", properties: {} } }] }
      : {}),
    ...(r.chance(0.1) ? { toolsRemoved: [{ name: r.pick(TOOLS) }] } : {}),
    timestamp: r.now(),
  };
}

function nullContentMessage(r: Rand): Json {
  const role = r.pick(["user", "assistant", "toolResult", "system"]);
  const base: Json = { role, content: null, timestamp: r.now() };
  if (role === "assistant") return { ...assistantMessage(r, [], "stop"), content: null };
  if (role === "toolResult") return { ...base, toolCallId: "call_null", toolName: "read", isError: false };
  return base;
}

/** The reference's methods take its own message types; our builders make plain JSON. */
type Ref = any;

function turn(sm: Ref, r: Rand): void {
  sm.appendMessage(userMessage(r));
  if (r.chance(0.08)) return; // the user gave up before a reply
  for (let round = r.int(0, 3); round > 0; round--) {
    const calls = Array.from({ length: r.int(1, 3) }, () => ({
      type: "toolCall",
      id: `call_${r.int(0, 1e9).toString(36)}`,
      name: r.pick(TOOLS),
      arguments: { path: `src/${r.pick(WORDS)}.ts`, command: "ls" },
    }));
    sm.appendMessage(assistantMessage(r, calls, "toolUse"));
    for (const call of calls) if (r.chance(0.95)) sm.appendMessage(toolResult(r, call));
  }
  const roll = r.next();
  const stop = roll < 0.72 ? "stop" : roll < 0.82 ? "error" : roll < 0.92 ? "aborted" : "length";
  sm.appendMessage(assistantMessage(r, [], stop));
}

function contextEdit(sm: Ref, r: Rand): void {
  const targets = (sm.getBranch() as Entry[]).filter((e) =>
    e.type === "custom_message" ||
    (e.type === "message" && ["user", "assistant", "toolResult"].includes(e.message?.role as string))
  );
  if (targets.length === 0) return;
  const roll = r.next();
  const replacement = roll < 0.3
    ? null
    : roll < 0.65
    ? { content: text(r) }
    : { content: [{ type: "text", text: text(r) }, ...(r.chance(0.2) ? [{ type: "text", text: "more" }] : [])] };
  sm.appendContextEdit(r.pick(targets).id, replacement);
}

function compaction(sm: Ref, r: Rand): void {
  const branch = sm.getBranch() as Entry[];
  const others = (sm.getEntries() as Entry[]).filter((e) => !branch.includes(e));
  const roll = r.next();
  // undefined and null both mean "retain nothing": pi stores the entry's own id.
  const firstKept = roll < 0.2
    ? undefined
    : roll < 0.35
    ? null
    : roll < 0.9 && branch.length > 0
    ? r.pick(branch).id
    : others.length > 0
    ? r.pick(others).id
    : `${r.int(0, 0xfffffff).toString(16)}`;
  const details = r.chance(0.7) ? { readFiles: ["src/a.ts"], modifiedFiles: r.chance(0.5) ? ["src/b.ts"] : [] } : undefined;
  try {
    sm.appendCompaction(text(r, 5, 40), firstKept, r.int(1_000, 200_000), details, r.chance(0.15) || undefined, r.chance(0.5) ? usage(r) : undefined);
  } catch {
    // The reference cannot replay a system message whose content is null; skip this compaction.
  }
}

/** One random step on the session, weighted towards conversation. */
function step(sm: Ref, r: Rand, compactionHeavy: boolean): void {
  const entries = sm.getEntries() as Entry[];
  const roll = r.next() * 100;
  if (roll < 40 || entries.length === 0) return turn(sm, r);
  const any = () => r.pick(entries).id;
  if (roll < 44) return void sm.appendMessage(bashExecution(r));
  if (roll < 46) return void sm.appendMessage(customMessage(r));
  if (roll < 49) {
    return void sm.appendCustomMessageEntry(
      r.pick(["ext-note", "plan"]),
      r.chance(0.5) ? text(r) : [{ type: "text", text: text(r) }, ...(r.chance(0.3) ? [{ type: "image", data: PNG, mimeType: "image/png" }] : [])],
      r.chance(0.6),
      r.chance(0.4) ? { source: "ext" } : undefined,
    );
  }
  if (roll < 51) return void sm.appendMessage(systemMessage(r));
  if (roll < 53) return void sm.appendModelChange(...(r.pick(MODELS).slice(0, 2) as [string, string]));
  if (roll < 55) return void sm.appendThinkingLevelChange(r.pick(["off", "minimal", "low", "medium", "high", "xhigh"]));
  if (roll < 57) {
    const [provider, model] = r.pick(MODELS);
    return void sm.appendUsage(r.pick(["cache_warm", "title"]), provider, model, usage(r), r.chance(0.5) ? "note" : undefined);
  }
  if (roll < 59) return void sm.appendCustomEntry(r.pick(["ext-state", "todo"]), r.chance(0.7) ? { step: r.int(0, 99) } : undefined);
  if (roll < 63) {
    const label = r.chance(0.25) ? undefined : r.chance(0.1) ? "" : r.pick(LABELS);
    return void sm.appendLabelChange(any(), label);
  }
  if (roll < 65) return void sm.appendSessionInfo(r.chance(0.25) ? "" : r.pick(NAMES));
  if (roll < 71) return contextEdit(sm, r);
  if (roll < (compactionHeavy ? 85 : 76)) return compaction(sm, r);
  if (roll < 80 + (compactionHeavy ? 6 : 0)) return void sm.branch(any());
  if (roll < 84 + (compactionHeavy ? 6 : 0)) {
    const from = r.chance(0.15) ? null : any();
    return void sm.branchWithSummary(
      from,
      r.chance(0.1) ? "" : text(r, 5, 30),
      r.chance(0.5) ? { readFiles: [], modifiedFiles: ["x.ts"] } : undefined,
      r.chance(0.1) || undefined,
      r.chance(0.4) ? usage(r) : undefined,
    );
  }
  if (roll < 86) return void sm.resetLeaf();
  // Rare: the reference's listing drops a whole file holding a null-content user or assistant message.
  if (roll < 86.8) return void sm.appendMessage(nullContentMessage(r));
  return turn(sm, r);
}

/** Runs a session's script: optional setup entries, a first turn, then random steps. */
function script(sm: Ref, r: Rand, steps: number): void {
  if (r.chance(0.3)) sm.appendMessage(systemMessage(r));
  if (r.chance(0.4)) sm.appendModelChange(...(r.pick(MODELS).slice(0, 2) as [string, string]));
  if (r.chance(0.3)) sm.appendThinkingLevelChange(r.pick(["low", "high"]));
  if (r.chance(0.1)) sm.appendCustomEntry("setup", { ok: true });
  turn(sm, r);
  const heavy = r.chance(0.25);
  for (let i = 0; i < steps; i++) step(sm, r, heavy);
}

function fileName(timestampMs: number, id: string): string {
  return `${new Date(timestampMs).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
}

function hex(r: Rand, n: number): string {
  let s = "";
  while (s.length < n) s += r.int(0, 15).toString(16);
  return s;
}

function uuid(r: Rand): string {
  return `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A v1 file: no entry ids, no version (or 1), compactions pointing by index. */
function legacyV1(r: Rand, cwd: string): { id: string; created: number; lines: Json[] } {
  const id = uuid(r);
  const created = r.now();
  const header: Json = { type: "session", id, timestamp: iso(created), cwd };
  if (r.chance(0.2)) header.version = 1;
  const lines: Json[] = [header];
  const push = (e: Json) => lines.push({ ...e, timestamp: iso(r.now()) });
  const message = (m: Json) => push({ type: "message", message: m });
  for (let t = r.int(2, 6); t > 0; t--) {
    message(userMessage(r));
    if (r.chance(0.4)) {
      const call = { type: "toolCall", id: `call_${hex(r, 6)}`, name: "read", arguments: { path: "a.ts" } };
      message(assistantMessage(r, [call], "toolUse"));
      message(toolResult(r, call));
    }
    message(assistantMessage(r, [], r.chance(0.85) ? "stop" : "error"));
    if (r.chance(0.2)) push({ type: "thinking_level_change", thinkingLevel: "high" });
    if (r.chance(0.2)) push({ type: "model_change", provider: "openai", modelId: "gpt-4o" });
    if (r.chance(0.15)) message({ role: "hookMessage", customType: "hook", content: text(r), display: true, timestamp: r.now() });
    if (r.chance(0.15)) message(bashExecution(r));
    if (r.chance(0.35)) {
      // Index 0 is the header. Besides earlier entries, point at the header, at a later entry
      // (which has no id yet while pi migrates) and past the end of the file.
      const roll = r.next();
      const index = roll < 0.7 ? r.int(1, lines.length - 1) : roll < 0.8 ? 0 : roll < 0.9 ? lines.length + 1 : 10_000;
      push({ type: "compaction", summary: text(r, 5, 20), firstKeptEntryIndex: index, tokensBefore: r.int(1000, 50000) });
    }
  }
  return { id, created, lines };
}

/** A v2 file: ids and parents (with a branch), labels, and `hookMessage` roles. */
function legacyV2(r: Rand, cwd: string): { id: string; created: number; lines: Json[] } {
  const id = uuid(r);
  const created = r.now();
  const lines: Json[] = [{ type: "session", version: 2, id, timestamp: iso(created), cwd }];
  const ids: string[] = [];
  let leaf: string | null = null;
  const push = (e: Json) => {
    const entryId = hex(r, 8);
    const { type, ...rest } = e;
    lines.push({ type, id: entryId, parentId: leaf, timestamp: iso(r.now()), ...rest });
    ids.push(entryId);
    leaf = entryId;
  };
  const message = (m: Json) => push({ type: "message", message: m });
  for (let t = r.int(2, 6); t > 0; t--) {
    message(userMessage(r));
    message(assistantMessage(r, [], "stop"));
    if (r.chance(0.4)) message({ role: "hookMessage", customType: "hook", content: r.chance(0.5) ? text(r) : [{ type: "text", text: text(r) }], display: r.chance(0.5), details: { k: 1 }, timestamp: r.now() });
    if (r.chance(0.25)) push({ type: "label", targetId: r.pick(ids), label: r.chance(0.8) ? r.pick(LABELS) : undefined });
    if (r.chance(0.2)) push({ type: "compaction", summary: text(r), firstKeptEntryId: r.pick(ids), tokensBefore: r.int(1000, 9000) });
    if (r.chance(0.2)) leaf = r.pick(ids);
    if (r.chance(0.1)) push({ type: "branch_summary", fromId: r.pick(ids), summary: text(r) });
  }
  return { id, created, lines };
}

/**
 * Writes `count` session files under `<dir>/sessions/` and returns their paths: v3 sessions, forks,
 * clones and cross-project forks by the reference's writer, about 6% hand-made v1/v2 files, and a
 * few of them rewritten with CRLF line endings.
 */
export async function generateSessions(opts: GenerateOptions): Promise<string[]> {
  const agentDir = resolve(opts.dir);
  const projects = opts.projects?.length ? opts.projects : DEFAULT_PROJECTS;
  const r = makeRand(opts.seed);
  const dirFor = (cwd: string) => getDefaultSessionDir(cwd, agentDir);
  const legacyCount = opts.count >= 10 ? Math.max(2, Math.round(opts.count * 0.03)) : 0;
  const target = opts.count - 2 * legacyCount;
  const written: string[] = [];
  const saved = (sm: Ref) => written.push(sm.getSessionFile());

  while (written.length < target) {
    const cwd = r.pick(projects);
    const sm: Ref = SessionManager.create(cwd, dirFor(cwd));
    script(sm, r, r.chance(0.06) ? r.int(60, 140) : r.int(2, 28));
    saved(sm);
    if (written.length < target && r.chance(0.25)) {
      // Clone (the active leaf) or fork at any entry; the manager moves on to the new file.
      const clone = r.chance(0.4) && sm.getLeafId() !== null;
      sm.createBranchedSession(clone ? sm.getLeafId() : r.pick(sm.getEntries() as Entry[]).id);
      turn(sm, r);
      for (let i = r.int(0, 6); i > 0; i--) step(sm, r, false);
      saved(sm);
    }
    if (written.length < target && r.chance(0.06)) {
      const cwd = r.pick(projects);
      const fork: Ref = SessionManager.forkFrom(r.pick(written), cwd, dirFor(cwd));
      for (let i = r.int(0, 4); i > 0; i--) step(fork, r, false);
      saved(fork);
    }
  }

  const crlf = written.filter(() => r.chance(0.05)).slice(0, Math.max(2, legacyCount));
  for (let i = 0; i < 2 * legacyCount; i++) {
    const cwd = r.pick(projects);
    const { id, created, lines } = i % 2 === 0 ? legacyV1(r, cwd) : legacyV2(r, cwd);
    const path = join(dirFor(cwd), fileName(created, id));
    writeFileSync(path, lines.map((line) => JSON.stringify(line) + "\n").join(""));
    written.push(path);
    if (i === 0) crlf.push(path);
  }
  for (const [i, path] of crlf.entries()) {
    const body = readFileSync(path, "utf8").replace(/\n/g, "\r\n");
    // One CRLF file also lacks its final line break.
    writeFileSync(path, i === 0 ? body.replace(/\r\n$/, "") : body);
  }
  return written;
}

async function main(args: string[]): Promise<number> {
  const [out, count = "250", seed = "1"] = args;
  if (!out || !Number.isInteger(Number(count)) || !Number.isInteger(Number(seed))) {
    console.error("Usage: tsx scripts/gen-sessions.ts OUT_DIR [count] [seed]");
    return 2;
  }
  const files = await generateSessions({ dir: out, count: Number(count), seed: Number(seed) });
  const projects = new Set(files.map((f) => resolve(f, "..")));
  console.log(`generated ${files.length} sessions in ${projects.size} projects`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
