/**
 * `pi-session mcp`: a read-only MCP server over stdio for agents (pi first) to search and read
 * past sessions; `--install`/`--uninstall` edit pi's mcp.json, `--print` shows the entry. The
 * SDK is loaded only here, when the command runs.
 * @module
 */
import { resolvePath } from "../../core/storage/paths.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";

/** The server flags given with `--install`, passed on in the entry's args. */
function serverArgs(ctx: CliContext, opts: Record<string, unknown>): string[] {
  return [
    "mcp",
    ...(opts.all ? ["--all"] : []),
    ...(opts.maxChars !== undefined ? ["--max-chars", String(opts.maxChars)] : []),
    ...(opts.redact === false ? ["--no-redact"] : []),
    ...(ctx.options.agentDir !== undefined ? ["--agent-dir", ctx.agentDir] : []),
    ...(ctx.options.sessionDir !== undefined ? ["--session-dir", resolvePath(ctx.deps.storage.processCwd, ctx.options.sessionDir)] : []),
  ];
}

function maxChars(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1000) throw new CliError("bad-option", `--max-chars must be a whole number of at least 1000, not "${value}"`, "Pass e.g. --max-chars 40000");
  return n;
}

/** `pi-session mcp`. */
export const mcpCommand: CommandSpec = {
  name: "mcp",
  summary: "Serve past sessions to agents over MCP (stdio, read-only); --install adds it to pi's mcp.json",
  options: [
    { flags: "-a, --all", description: "see every project's sessions (default: the sessions of this directory)" },
    { flags: "--max-chars <n>", description: "character budget of one tool result (default 16000: pi hands a model at most 20 KiB)" },
    { flags: "--no-redact", description: "do not mask API keys, tokens and passwords in results" },
    { flags: "--install", description: "add (or update) the pi-session server in pi's mcp.json, keeping the rest of the file" },
    { flags: "--uninstall", description: "remove the pi-session server from pi's mcp.json" },
    { flags: "--project", description: "with --install/--uninstall: this project's .pi/mcp.json instead of the agent dir's" },
    { flags: "--print", description: "print the mcp.json entry instead of writing it" },
    { flags: "--command <cmd>", description: "with --install/--print: the command the client runs (default: pi-session)" },
  ],
  notes: [
    "Tools: search_sessions, list_sessions, session_info, read_session, session_tree, get_context,",
    "files_touched, usage_stats; resource template pi-session://session/{id} (Markdown).",
    "stdout carries only JSON-RPC; notes go to stderr. Long results come in pages (nextCursor).",
  ],
  examples: ["pi-session mcp --install", "pi-session mcp --install --project --all", "pi-session mcp --print"],
  async run(ctx, _args, opts) {
    const budget = maxChars(opts.maxChars);
    const edits = [opts.install, opts.uninstall, opts.print].filter(Boolean).length;
    if (edits > 1) throw new CliError("bad-option", "--install, --uninstall and --print go one at a time", "Pass one of them");
    if (opts.project && !opts.install && !opts.uninstall) throw new CliError("bad-option", "--project goes with --install or --uninstall", "Pass --install --project");
    if (edits === 1) {
      const { SERVER_NAME, entrySnippet } = await import("../../mcp/mcp-json.ts");
      const entry = {
        command: typeof opts.command === "string" ? opts.command : "pi-session",
        args: serverArgs(ctx, opts),
        description: "Search and read past pi sessions (pi-session)",
      };
      if (opts.print) {
        ctx.out(entrySnippet(entry));
        return 0;
      }
      const { editMcpJson, mcpJsonPath } = await import("../../mcp/install.ts");
      const path = mcpJsonPath({ agentDir: ctx.agentDir, project: opts.project ? ctx.cwd : undefined });
      const done = await editMcpJson(ctx.fs, path, opts.install ? entry : undefined);
      if (ctx.json) ctx.outJson({ path: done.path, outcome: done.outcome, backup: done.backup ?? null });
      else {
        const what = { added: "Added", updated: "Updated", unchanged: "Already up to date:", removed: "Removed", absent: "Nothing to remove: no" }[done.outcome];
        ctx.out(`${what} the ${SERVER_NAME} server in ${done.path}${done.backup ? ` (the old file is at ${done.backup})` : ""}`);
        if (done.outcome === "added" || done.outcome === "updated") ctx.note("pi connects to it in new sessions; `/mcp` in pi shows its state");
      }
      if (done.notStrictJson) ctx.notice(`${done.path} holds comments or trailing commas: pi 1.6 reads mcp.json as strict JSON and will report it until they are removed`);
      return 0;
    }
    const { serveStdio } = await import("../../mcp/stdio.ts");
    await serveStdio({
      runtime: { fs: ctx.fs, storage: ctx.deps.storage, now: ctx.deps.now },
      scope: { agentDir: ctx.options.agentDir, sessionDir: ctx.options.sessionDir, cwd: ctx.cwd },
      all: Boolean(opts.all),
      maxChars: budget,
      redact: opts.redact !== false,
      log: (line) => ctx.deps.stderr(line + "\n"),
    });
    return 0;
  },
};
