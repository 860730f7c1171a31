/**
 * `list`: the sessions of this directory (or of every project), newest first, as a
 * table for people, JSON or NDJSON for scripts.
 * @module
 */
import type { SessionInfo } from "../../core/info/session-info.ts";
import { tildePath } from "../../core/storage/paths.ts";
import { cataloguedSessions } from "../../query/scope.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";
import { relativeAge } from "../output/age.ts";
import { formatTable } from "../output/table.ts";
import { oneLine } from "../../render/control-chars.ts";
import { uniquePrefixesAmong } from "../../render/unique-prefix.ts";
import { parseQuery, searchSessions } from "../../query/resume-search.ts";

/** The JSON shape of one listed session (SPEC §4). */
export function sessionJson(info: SessionInfo) {
  const iso = (d: Date) => (Number.isNaN(d.getTime()) ? null : d.toISOString());
  return {
    path: info.path,
    id: info.id,
    cwd: info.cwd,
    name: info.name ?? null,
    parentSessionPath: info.parentSessionPath ?? null,
    created: iso(info.created),
    modified: iso(info.modified),
    messageCount: info.messageCount,
    firstMessage: info.firstMessage,
  };
}

const SORTS: Record<string, (a: SessionInfo, b: SessionInfo) => number> = {
  modified: (a, b) => b.modified.getTime() - a.modified.getTime(),
  created: (a, b) => b.created.getTime() - a.created.getTime(),
  name: (a, b) => (a.name ?? a.firstMessage).localeCompare(b.name ?? b.firstMessage),
  messages: (a, b) => b.messageCount - a.messageCount,
};

export const listCommand: CommandSpec = {
  name: "list",
  summary: "List the sessions of the current directory (or of all projects), newest first",
  options: [
    { flags: "-a, --all", description: "list the sessions of every project" },
    { flags: "--sort <key>", description: "sort order", choices: ["modified", "created", "name", "messages", "size"], default: "modified" },
    { flags: "--named", description: "only sessions that have a name" },
    { flags: "--search <query>", description: "only sessions matching the query, as pi's /resume searches: words (fuzzy), \"exact phrases\", re:REGEX" },
    { flags: "--limit <n>", description: "print at most n sessions" },
    { flags: "--ndjson", description: "print one JSON object per line" },
  ],
  notes: [
    "--search uses pi's /resume syntax, as `pick` does: every word must match the name, id, messages",
    'or cwd (fuzzily in the name and cwd); "quoted words" match as a phrase; re:PATTERN is a',
    "case-insensitive regular expression. Exits 1 when no session is listed.",
  ],
  examples: ["pi-session list", "pi-session list --all --sort messages --limit 20", "pi-session list --search '\"tree walk\" parser'", "pi-session list --all --json | jq '.[0].path'"],
  async run(ctx, _args, opts) {
    const limit = opts.limit === undefined ? Infinity : Number(opts.limit);
    if (limit !== Infinity && (!Number.isInteger(limit) || limit < 1)) throw new CliError("bad-option", `--limit must be a whole number above 0, not "${opts.limit}"`, "Pass e.g. --limit 20");
    const query = typeof opts.search === "string" ? opts.search : undefined;
    if (query !== undefined) {
      const parsed = parseQuery(query);
      if (parsed.mode === "regex" && parsed.error !== undefined) {
        throw new CliError("bad-query", `Cannot search for "${query}": ${parsed.error}`, "Check the regular expression after re:");
      }
    }
    const table = !opts.ndjson && !ctx.json;
    // Through the catalog; a search also needs the message texts (a section of their own), and
    // a table the ids of every project's sessions, so that each printed id resolves back to its own.
    const listed = await cataloguedSessions(ctx, Boolean(opts.all), { withText: query !== undefined, knownIds: table });
    let sessions = listed.sessions;
    if (opts.named) sessions = sessions.filter((s) => s.name !== undefined && s.name.trim() !== "");
    // pi's /resume search syntax, as `pick` has it; the order stays --sort's.
    if (query !== undefined) sessions = searchSessions(sessions, query, true).sessions;
    if (opts.sort === "size") {
      const sizes = new Map<string, number>();
      for (const s of sessions) sizes.set(s.path, (await ctx.fs.stat(s.path))?.size ?? 0);
      sessions.sort((a, b) => sizes.get(b.path)! - sizes.get(a.path)!);
    } else {
      sessions.sort(SORTS[String(opts.sort)] ?? SORTS.modified);
    }
    sessions = sessions.slice(0, limit);
    // Found nothing: exit 1 in every output mode (SPEC §4), with an empty array for --json.
    const found = sessions.length === 0 ? 1 : 0;
    if (opts.ndjson) {
      for (const s of sessions) ctx.deps.stdout(JSON.stringify(sessionJson(s)) + "\n");
      return found;
    }
    if (ctx.json) {
      ctx.outJson(sessions.map(sessionJson));
      return found;
    }
    if (sessions.length === 0) {
      const what = query !== undefined ? `No sessions match ${JSON.stringify(query)}` : opts.named ? "No named sessions" : "No sessions";
      ctx.note(opts.all ? `${what}.` : `${what} for ${ctx.cwd}; try --all`);
      return 1;
    }
    const now = ctx.deps.now();
    const home = ctx.deps.storage.home;
    const shortIds = uniquePrefixesAmong(sessions.map((s) => s.id), listed.knownIds);
    const rows = sessions.map((s) => {
      const title = oneLine(s.name ?? s.firstMessage);
      // Ids and cwds come from the file: control characters never reach the terminal.
      const row = [relativeAge(s.modified, now), String(s.messageCount), oneLine(shortIds.get(s.id)!)];
      if (opts.all) row.push(oneLine(tildePath(s.cwd, home)));
      row.push(title);
      return row;
    });
    const c = ctx.color;
    const columns = [{ right: true, style: c.dim }, { right: true }, { style: c.cyan }, ...(opts.all ? [{ style: c.dim }] : []), { flex: true }];
    for (const line of formatTable(rows, columns, ctx.width)) ctx.out(line);
    return 0;
  },
};
