/**
 * The Markdown export as it was made before it streamed (issue 22): the whole file in memory,
 * every kept entry masked up front. The oracle of the streamed export's differential test.
 * @module
 */
import type { AssistantMessage, MessageEntry, SessionEntry } from "../../src/core/format/types.ts";
import { sessionUsage } from "../../src/core/info/usage-totals.ts";
import type { SessionFile } from "../../src/core/read/read-session.ts";
import { describeRedactions, type Redactor } from "../../src/core/redact/redactor.ts";
import { SessionTree } from "../../src/core/tree/session-tree.ts";
import { groupDigits } from "../../src/render/numbers.ts";
import { entryBlock, formatTime } from "../../src/render/transcript.ts";
import { oneLine } from "../../src/render/control-chars.ts";
import { inlineCode, markdownBlock } from "../../src/render/transcript-markdown.ts";

export interface WholeOptions {
  file: SessionFile;
  /** Ids of the entries to export. */
  keep: ReadonlySet<string>;
  leafId: string | null;
  allBranches: boolean;
  redactor: Redactor | null;
  now: Date;
  generator: string;
}

function modelsOf(entries: readonly SessionEntry[]): string[] {
  const models = new Set<string>();
  for (const entry of entries) {
    const message = (entry as MessageEntry).message as AssistantMessage | undefined;
    if (entry.type === "message" && message?.role === "assistant" && message.model) {
      models.add([message.provider, message.responseModel ?? message.model].filter(Boolean).join("/"));
    }
  }
  return [...models];
}

/**
 * The whole Markdown document.
 *
 * @example
 * ```ts
 * // const text = await markdownExport({ source, keep, leafId, allBranches: false, redactor: null, now, generator });
 * ```
 */
export function markdownWhole(options: WholeOptions): string {
  const { file, redactor } = options;
  const tree = new SessionTree(file.entries);
  const byId = new Map<string, SessionEntry>();
  for (const entry of file.entries) if (options.keep.has(entry.id)) byId.set(entry.id, redactor ? redactor.value(entry) : entry);
  const resolve = (path: readonly SessionEntry[]) => path.map((e) => byId.get(e.id)).filter((e): e is SessionEntry => e !== undefined);

  const branch = resolve(tree.getPath(options.leafId));
  const header = redactor ? redactor.value(file.header!) : file.header!;
  const name = tree.sessionName !== undefined && redactor ? redactor.text(tree.sessionName) : tree.sessionName;
  const labels = new Map<string, { label: string }>();
  for (const [id, value] of tree.labels) labels.set(id, { label: redactor ? redactor.text(value.label) : value.label });
  const blocks = (entries: readonly SessionEntry[]) => {
    const out: string[] = [];
    for (const entry of entries) {
      const block = entryBlock(entry, { thinking: true, usage: true, labels });
      // Loops, not push(...): a spread of 100k+ arguments overflows the stack.
      if (block) for (const line of markdownBlock(block)) out.push(line);
    }
    return out;
  };

  const usage = sessionUsage(branch).totals;
  const all = [...byId.values()];
  const last = branch.reduce((max, e) => (typeof e.timestamp === "string" && e.timestamp > max ? e.timestamp : max), "");
  const facts: [string, string][] = [
    ["Session", inlineCode(String(header.id))],
    ["Directory", inlineCode(String(header.cwd ?? ""))],
    ["Started", formatTime(header.timestamp) + " UTC"],
    ["Last entry", last ? formatTime(last) + " UTC" : "—"],
    ["Models", modelsOf(options.allBranches ? all : branch).join(", ") || "—"],
    ["Branch", `${groupDigits(branch.length)} entries, leaf ${options.leafId ? inlineCode(options.leafId) : "(none)"}`],
    [
      "Tokens",
      `${groupDigits(usage.totalTokens)} (input ${groupDigits(usage.input)}, output ${groupDigits(usage.output)}, cache read ${groupDigits(usage.cacheRead)}, cache write ${groupDigits(usage.cacheWrite)})`,
    ],
    ["Cost", `$${usage.cost.total.toFixed(4)}`],
  ];
  if (options.allBranches) {
    const total = sessionUsage(all).totals;
    facts.push(["All branches", `${groupDigits(all.length)} entries, ${groupDigits(total.totalTokens)} tokens, $${total.cost.total.toFixed(4)}`]);
  }
  // The name is data: `<` is escaped so a renderer that allows HTML shows it as text.
  const lines = [`# ${oneLine(name ?? `Session ${header.id}`).trim().replace(/</g, "&lt;")}`, "", "| | |", "|---|---|"];
  // Values come from the file: one line each (a newline would end the table), pipes escaped.
  for (const [key, value] of facts) lines.push(`| ${key} | ${oneLine(value).replace(/\|/g, "\\|")} |`);
  // Every entry, the header and the labels are masked by now, so the counts are complete.
  const redacted = redactor ? ` · secrets redacted: ${describeRedactions(redactor.summary()) || "none found"}` : "";
  lines.push("", `*Exported ${formatTime(options.now.toISOString())} UTC by ${options.generator}${redacted}*`, "", "---", "");
  for (const line of blocks(branch)) lines.push(line);

  if (options.allBranches) {
    const shown = new Set(branch.map((e) => e.id));
    for (const leaf of tree.leaves()) {
      if (shown.has(leaf.id)) continue;
      const path = tree.getPath(leaf.id);
      const fork = path.findIndex((e) => !shown.has(e.id));
      const rest = resolve(path.slice(fork));
      for (const e of path) shown.add(e.id);
      const from = fork > 0 ? ` (forks after ${inlineCode(oneLine(path[fork - 1].id))})` : "";
      lines.push("---", "", `## Branch ending at ${inlineCode(oneLine(leaf.id))}${from}`, "");
      for (const line of blocks(rest)) lines.push(line);
    }
  }
  return lines.join("\n").replace(/\n+$/, "\n");
}
