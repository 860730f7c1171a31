/**
 * The Markdown export: a header (name, id, cwd, models, dates, tokens and cost) and the
 * branch as a transcript (the same blocks as `show --format markdown`, with thinking and
 * usage), then, with all branches, each other branch from where it forks. Streamed: a session
 * of any size is exported in bounded memory.
 * @module
 */
import type { AssistantMessage, MessageEntry, SessionEntry } from "../core/format/types.ts";
import { addUsage, emptyUsage, entryUsage } from "../core/info/usage-totals.ts";
import { describeRedactions, type Redactor } from "../core/redact/redactor.ts";
import { groupDigits } from "../render/numbers.ts";
import { entryBlock, formatTime } from "../render/transcript.ts";
import { oneLine } from "../render/control-chars.ts";
import { inlineCode, markdownBlock } from "../render/transcript-markdown.ts";
import { JoinedLines } from "../render/joined-lines.ts";
import type { ExportSource } from "./export-source.ts";
import { collectGarbage } from "../io/collect-garbage.ts";

export interface MarkdownExportOptions {
  source: ExportSource;
  keep: ReadonlySet<SessionEntry>;
  leafId: string | null;
  allBranches: boolean;
  redactor: Redactor | null;
  now: Date;
  generator: string;
}

/** Branches of this many entries on get a garbage collection between the two passes. */
const MANY = 20_000;

/**
 * Bytes read between two garbage collections: each line is parsed, masked (a copy) and made
 * into Markdown, much garbage per byte read.
 */
const COLLECT_EVERY = 8 * 1024 * 1024;

/** Entries walked from other branches' leaves between two garbage collections. */
const WALKED = 200_000;

/** Text gathered before it is handed on. */
const PIECE = 256 * 1024;


/** What the header needs of one entry: its usage (the counts it adds), its model, its time. */
interface Facts {
  /** input, output, cache read, cache write, total tokens and total cost, as `addUsage` adds them. */
  usage?: number[];
  model?: string;
  timestamp?: string;
}

/** One string for each model name (each parsed line has its own copy). */
const models = new Map<string, string>();

function factsOf(entry: SessionEntry): Facts {
  const facts: Facts = {};
  const found = entryUsage(entry);
  if (found) {
    const one = emptyUsage();
    addUsage(one, found.usage);
    facts.usage = [one.input, one.output, one.cacheRead, one.cacheWrite, one.totalTokens, one.cost.total];
  }
  const message = (entry as MessageEntry).message as AssistantMessage | undefined;
  if (entry.type === "message" && message?.role === "assistant" && message.model) {
    const model = [message.provider, message.responseModel ?? message.model].filter(Boolean).join("/");
    if (!models.has(model) && models.size < 10_000) models.set(model, model);
    facts.model = models.get(model) ?? model;
  }
  if (typeof entry.timestamp === "string") facts.timestamp = entry.timestamp;
  return facts;
}

function modelsOf(facts: Iterable<Facts>): string[] {
  const found = new Set<string>();
  for (const fact of facts) if (fact.model !== undefined) found.add(fact.model);
  return [...found];
}

/** The totals the header shows, summed in the order given (as `sessionUsage` sums them). */
function usageOf(facts: Iterable<Facts>): { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens: number; cost: number } {
  const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
  for (const { usage: u } of facts) {
    if (!u) continue;
    t.input += u[0];
    t.output += u[1];
    t.cacheRead += u[2];
    t.cacheWrite += u[3];
    t.totalTokens += u[4];
    t.cost += u[5];
  }
  return t;
}

const decoder = new TextDecoder();

/**
 * The first pass: every kept entry masked in file order (so `redactor` has counted all it will
 * mask before the header says so), and the few facts the header needs, by entry id.
 */
async function gather(source: ExportSource, keep: ReadonlySet<SessionEntry>, redactor: Redactor | null): Promise<Map<string, Facts>> {
  const facts = new Map<string, Facts>();
  // Every line is parsed (and maybe masked): garbage collected often.
  for await (const line of source.lines(keep, { collectEvery: COLLECT_EVERY })) {
    let entry: SessionEntry;
    try {
      entry = JSON.parse(decoder.decode(line)) as SessionEntry;
    } catch {
      continue; // The line is torn past its linking fields: nothing to export (as the second pass finds).
    }
    // A line the byte scan clears would come out of masking unchanged, and count nothing.
    if (redactor?.lineMayChange(line)) entry = redactor.value(entry);
    facts.set(entry.id, factsOf(entry));
  }
  return facts;
}

/**
 * The document's head (title, facts table, export line) and what the transcript needs after it.
 * A function of its own: the first pass's facts are garbage once it returns, not kept by the
 * export's generator for as long as the transcript is written.
 */
async function documentHead(options: MarkdownExportOptions): Promise<{ lines: string[]; path: SessionEntry[]; labels: Map<string, { label: string }>; masker: Redactor | null }> {
  const { source, redactor } = options;
  const { tree } = source;
  const facts = await gather(source, options.keep, redactor);
  const header = redactor ? redactor.value(source.header) : source.header;
  const name = tree.sessionName !== undefined && redactor ? redactor.text(tree.sessionName) : tree.sessionName;
  const labels = new Map<string, { label: string }>();
  for (const [id, value] of tree.labels) labels.set(id, { label: redactor ? redactor.text(value.label) : value.label });
  // Every entry, the header and the labels are masked by now, so the counts are complete. The
  // second pass masks again with a fresh copy of the rules, which counts nothing twice.
  const masker = redactor?.fresh() ?? null;

  const path = tree.getPath(options.leafId);
  const branchFacts = path.map((e) => facts.get(e.id)).filter((f): f is Facts => f !== undefined);
  const usage = usageOf(branchFacts);
  const last = branchFacts.reduce((max, f) => (f.timestamp !== undefined && f.timestamp > max ? f.timestamp : max), "");
  const factRows: [string, string][] = [
    ["Session", inlineCode(String(header.id))],
    ["Directory", inlineCode(String(header.cwd ?? ""))],
    ["Started", formatTime(header.timestamp) + " UTC"],
    ["Last entry", last ? formatTime(last) + " UTC" : "—"],
    ["Models", modelsOf(options.allBranches ? facts.values() : branchFacts).join(", ") || "—"],
    ["Branch", `${groupDigits(branchFacts.length)} entries, leaf ${options.leafId ? inlineCode(options.leafId) : "(none)"}`],
    [
      "Tokens",
      `${groupDigits(usage.totalTokens)} (input ${groupDigits(usage.input)}, output ${groupDigits(usage.output)}, cache read ${groupDigits(usage.cacheRead)}, cache write ${groupDigits(usage.cacheWrite)})`,
    ],
    ["Cost", `$${usage.cost.toFixed(4)}`],
  ];
  if (options.allBranches) {
    const total = usageOf(facts.values());
    factRows.push(["All branches", `${groupDigits(facts.size)} entries, ${groupDigits(total.totalTokens)} tokens, $${total.cost.toFixed(4)}`]);
  }
  // The name is data: `<` is escaped so a renderer that allows HTML shows it as text.
  const lines = [`# ${oneLine(name ?? `Session ${header.id}`).trim().replace(/</g, "&lt;")}`, "", "| | |", "|---|---|"];
  // Values come from the file: one line each (a newline would end the table), pipes escaped.
  for (const [key, value] of factRows) lines.push(`| ${key} | ${oneLine(value).replace(/\|/g, "\\|")} |`);
  const redacted = redactor ? ` · secrets redacted: ${describeRedactions(redactor.summary()) || "none found"}` : "";
  lines.push("", `*Exported ${formatTime(options.now.toISOString())} UTC by ${options.generator}${redacted}*`, "", "---", "");
  return { lines, path, labels, masker };
}

/**
 * The whole Markdown document, in pieces: a first pass over the kept entries for the header
 * (usage, models, what was masked), then the blocks as a second pass parses them, a few
 * megabytes at a time.
 *
 * @example
 * ```ts
 * // for await (const text of markdownExport({ source, keep, leafId, allBranches: false, redactor: null, now, generator })) …
 * ```
 */
export async function* markdownExport(options: MarkdownExportOptions): AsyncIterable<string> {
  const { source } = options;
  const { tree } = source;
  const { lines, path, labels, masker } = await documentHead(options);
  // The first pass leaves its facts and much garbage behind: cleared before the second.
  if (path.length >= MANY) collectGarbage();
  const joined = new JoinedLines();
  yield joined.add(lines);

  async function* blocks(entries: readonly SessionEntry[]): AsyncIterable<string> {
    let text = "";
    for await (const entry of source.inOrder(entries, { collectEvery: COLLECT_EVERY })) {
      const block = entryBlock(masker ? masker.value(entry) : entry, { thinking: true, usage: true, labels });
      if (block) text += joined.add(markdownBlock(block));
      if (text.length >= PIECE) {
        yield text;
        text = "";
      }
    }
    if (text) yield text;
  }
  yield* blocks(path);

  if (options.allBranches) {
    const shown = new Set(path.map((e) => e.id));
    let walked = 0;
    for (const leaf of tree.leaves()) {
      if (shown.has(leaf.id)) continue;
      const leafPath = tree.getPath(leaf.id);
      // Each walk from a leaf makes garbage as long as its path (a deep branch's is megabytes),
      // and a short branch reads too little to collect it: collected by entries walked.
      walked += leafPath.length;
      if (walked >= WALKED) {
        walked = 0;
        collectGarbage();
      }
      const fork = leafPath.findIndex((e) => !shown.has(e.id));
      for (const e of leafPath) shown.add(e.id);
      const from = fork > 0 ? ` (forks after ${inlineCode(oneLine(leafPath[fork - 1].id))})` : "";
      yield joined.add(["---", "", `## Branch ending at ${inlineCode(oneLine(leaf.id))}${from}`, ""]);
      yield* blocks(leafPath.slice(fork));
    }
  }
  yield joined.end();
}
