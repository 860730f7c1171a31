/**
 * `info`: what pi's /session shows about one file (counts over every entry, all branches
 * and compacted history), plus leaves, labels, models and the problems found reading it.
 * @module
 */
import type { UsageTotals } from "../../core/info/usage-totals.ts";
import { sessionInfo } from "../../query/info.ts";
import type { CommandSpec } from "../command.ts";
import { oneLine } from "../../render/control-chars.ts";
import { groupDigits } from "../../render/numbers.ts";

/** How the text names message roles other than user, assistant and tool results. */
const OTHER_ROLES: Record<string, string> = {
  bashExecution: "Bash executions",
  custom: "Custom",
  branchSummary: "Branch summaries",
  compactionSummary: "Compaction summaries",
};

function usageLines(usage: UsageTotals): string[] {
  const lines = [`  Input:  ${groupDigits(usage.input + usage.cacheRead + usage.cacheWrite)}`];
  if (usage.cacheRead > 0 || usage.cacheWrite > 0) {
    const seen = usage.input + usage.cacheRead + usage.cacheWrite;
    const hit = seen > 0 ? ((usage.cacheRead / seen) * 100).toFixed(1) : "0.0";
    lines.push(`    Cached:   ${groupDigits(usage.cacheRead)} (${hit}%)`);
    lines.push(`    Uncached: ${groupDigits(usage.input + usage.cacheWrite)} (${groupDigits(usage.cacheWrite)} written to cache)`);
  }
  lines.push(`  Output: ${groupDigits(usage.output)}`, `  Total:  ${groupDigits(usage.totalTokens)}`);
  return lines;
}

export const infoCommand: CommandSpec = {
  name: "info",
  summary: "Show a session's file, id, cwd, name, dates, counts, leaves, labels, tokens and cost",
  args: ["<ref>"],
  examples: ["pi-session info @", "pi-session info 01a2b3c4 --json", "pi-session info ~/.pi/agent/sessions/--home-me-app--/2026-01-01T10-00-00-000Z_x.jsonl"],
  async run(ctx, [ref]) {
    const { value: data, usage: totals, byKey, inherited, toolCalls, messageCount: messages, migrated } = await sessionInfo(ctx, { ref });
    const { path, entryTypes, messageRoles, models, problems } = data;
    if (ctx.json) {
      ctx.outJson(data);
      return 0;
    }
    const c = ctx.color;
    // Everything below but numbers comes from the file: control characters never reach the terminal.
    const text = (value: unknown) => oneLine(String(value));
    const lines = [
      c.bold("Session Info"),
      "",
      `File:     ${text(path)}`,
      `ID:       ${text(data.id)}`,
      ...(data.name ? [`Name:     ${text(data.name)}`] : []),
      `Cwd:      ${text(data.cwd)}`,
      ...(data.parentSession ? [`Parent:   ${text(data.parentSession)}`] : []),
      `Created:  ${data.created ?? "?"}`,
      `Modified: ${data.modified ?? "?"}`,
      `Version:  ${data.version}${migrated ? " (read as 3)" : ""}`,
      "",
      c.bold("Messages"),
      `  Total: ${messages}`,
      `  User: ${messageRoles.user ?? 0}`,
      `  Assistant: ${messageRoles.assistant ?? 0}`,
      `  Tools: ${toolCalls} calls, ${messageRoles.toolResult ?? 0} results`,
      // Every other role too (a `!command` run, an extension's message), so the lines add up to the total.
      ...Object.entries(messageRoles)
        .filter(([role]) => !["user", "assistant", "toolResult"].includes(role))
        .map(([role, count]) => `  ${OTHER_ROLES[role] ?? text(role)}: ${count}`),
      "",
      c.bold("Tree"),
      `  Entries: ${data.entryCount} (${Object.entries(entryTypes).map(([k, v]) => `${text(k)} ${v}`).join(", ") || "none"})`,
      `  Leaves: ${data.leafCount}, active leaf ${data.leafId === null ? "(none)" : text(data.leafId)}`,
      `  Labels: ${data.labelCount}`,
      "",
      c.bold("Tokens"),
      ...usageLines(totals),
      "",
      c.bold("Cost"),
      `  Total: $${totals.cost.total.toFixed(3)}`,
      ...(byKey.size > 1 ? [...byKey].map(([key, u]) => `    ${text(key)}: $${u.cost.total.toFixed(3)}`) : []),
      ...(inherited === null ? [] : inherited.usage === null
        ? [`  Inherited: unknown (cannot read the parent ${text(inherited.parentSession)})`]
        : [`  Inherited from the parent: $${inherited.usage.cost.total.toFixed(3)} (${groupDigits(inherited.usage.totalTokens)} tokens); this session's own: $${(totals.cost.total - inherited.usage.cost.total).toFixed(3)}`]),
      ...(models.length ? ["", c.bold("Models"), ...models.map((m) => `  ${text(m)}`)] : []),
    ];
    if (problems.length > 0) {
      lines.push("", c.bold(c.yellow(`Problems (${problems.length})`)));
      for (const p of problems.slice(0, 20)) lines.push(`  line ${p.line}: ${text(p.message)} [${p.code}]`);
      if (problems.length > 20) lines.push(`  … and ${problems.length - 20} more; run \`pi-session check\``);
    }
    for (const line of lines) ctx.out(line);
    return 0;
  },
};
