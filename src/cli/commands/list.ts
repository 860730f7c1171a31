/**
 * `list`: the sessions of this directory (or of every project), newest first, as a
 * table for people, JSON or NDJSON for scripts.
 * @module
 */
import { tildePath } from "../../core/storage/paths.ts";
import { LIST_SORTS, type ListSort, listSessions } from "../../query/list.ts";
import type { CommandSpec } from "../command.ts";
import { relativeAge } from "../output/age.ts";
import { tableLines } from "../output/table.ts";
import { oneLine } from "../../render/control-chars.ts";

export const listCommand: CommandSpec = {
  name: "list",
  summary: "List the sessions of the current directory (or of all projects), newest first",
  options: [
    { flags: "-a, --all", description: "list the sessions of every project" },
    { flags: "--sort <key>", description: "sort order", choices: [...LIST_SORTS], default: "modified" },
    { flags: "--named", description: "only sessions that have a name" },
    { flags: "--search <query>", description: "only sessions matching the query, as pi's /resume searches: words (fuzzy), \"exact phrases\", re:REGEX" },
    { flags: "--since <date>", description: "only sessions modified on or after this day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d, 12h, 2w)" },
    { flags: "--until <date>", description: "only sessions modified on or before this day or month, or before this ISO time" },
    { flags: "--model <name>", description: "only sessions with replies from a model whose provider/model contains this (any case)" },
    { flags: "--tz <zone>", description: "time zone of --since's and --until's day or month (default: this machine's)" },
    { flags: "--limit <n>", description: "print at most n sessions" },
    { flags: "--ndjson", description: "print one JSON object per line" },
  ],
  notes: [
    "--search uses pi's /resume syntax, as `pick` does: every word must match the name, id, messages",
    'or cwd (fuzzily in the name and cwd); "quoted words" match as a phrase; re:PATTERN is a',
    "case-insensitive regular expression. Exits 1 when no session is listed.",
  ],
  examples: ["pi-session list", "pi-session list --all --sort messages --limit 20", "pi-session list --all --since 7d", "pi-session list --all --model sonnet --since 2025-06 --until 2025-06", "pi-session list --search '\"tree walk\" parser'", "pi-session list --all --json | jq '.[0].path'"],
  async run(ctx, _args, opts) {
    const table = !opts.ndjson && !ctx.json;
    const query = typeof opts.search === "string" ? opts.search : undefined;
    const { value: sessions, shortIds } = await listSessions(ctx, {
      all: Boolean(opts.all),
      sort: String(opts.sort ?? "modified") as ListSort,
      named: Boolean(opts.named),
      search: query,
      since: typeof opts.since === "string" ? opts.since : undefined,
      until: typeof opts.until === "string" ? opts.until : undefined,
      model: typeof opts.model === "string" ? opts.model : undefined,
      tz: typeof opts.tz === "string" ? opts.tz : undefined,
      limit: opts.limit === undefined ? undefined : String(opts.limit),
      shortIds: table,
    });
    // Found nothing: exit 1 in every output mode (SPEC §4), with an empty array for --json.
    const found = sessions.length === 0 ? 1 : 0;
    if (opts.ndjson) {
      for (const s of sessions) ctx.deps.stdout(JSON.stringify(s) + "\n");
      return found;
    }
    if (ctx.json) {
      ctx.outJson(sessions);
      return found;
    }
    if (sessions.length === 0) {
      const what = query !== undefined ? `No sessions match ${JSON.stringify(query)}` : opts.named ? "No named sessions" : "No sessions";
      const when = [
        typeof opts.model === "string" ? ` by a model matching ${JSON.stringify(opts.model)}` : "",
        typeof opts.since === "string" ? ` modified since ${opts.since}` : "",
        typeof opts.until === "string" ? ` modified until ${opts.until}` : "",
      ].join("");
      ctx.note(opts.all ? `${what}${when}.` : `${what}${when} for ${ctx.cwd}; try --all`);
      return 1;
    }
    const now = ctx.deps.now();
    const home = ctx.deps.storage.home;
    const rows = sessions.map((s) => {
      const title = oneLine(s.name ?? s.firstMessage);
      // Ids and cwds come from the file: control characters never reach the terminal.
      const row = [relativeAge(new Date(s.modified ?? NaN), now), String(s.messageCount), oneLine(shortIds!.get(s.id)!)];
      if (opts.all) row.push(oneLine(tildePath(s.cwd, home)));
      row.push(title);
      return row;
    });
    const c = ctx.color;
    const columns = [{ right: true, style: c.dim }, { right: true }, { style: c.cyan }, ...(opts.all ? [{ style: c.dim, shrink: true, cutStart: true }] : []), { flex: true }];
    // Printed in pieces of about 64 KB: one write per line was 25,000 writes for every session.
    let piece = "";
    for (const line of tableLines(rows, columns, ctx.width)) {
      piece += line + "\n";
      if (piece.length >= 65536) {
        ctx.deps.stdout(piece);
        piece = "";
      }
    }
    if (piece !== "") ctx.deps.stdout(piece);
    return 0;
  },
};
