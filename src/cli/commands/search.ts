/**
 * `search <query>`: full text over what was said and done in sessions (user, assistant, tool
 * and bash text; thinking on request; names, labels and summaries). Uses the catalog's FTS5
 * index where SQLite is available, else streams the files; both give the same hits.
 * @module
 */
import type { SessionInfo } from "../../core/info/session-info.ts";
import { docFilter } from "../../core/search/doc-filter.ts";
import { DOC_ROLES } from "../../core/search/entry-docs.ts";
import { parseSearchQuery, type SearchQuery } from "../../core/search/query.ts";
import type { Snippet } from "../../core/search/snippet.ts";
import { tildePath } from "../../core/storage/paths.ts";
import type { SearchHit } from "../../catalog/search-hit.ts";
import { searchSessions } from "../../catalog/search-sessions.ts";
import { sessionScope, withCatalog, withProgress } from "../../query/scope.ts";
import type { CommandSpec } from "../command.ts";
import type { Colors } from "../context.ts";
import { dateOption, timeZoneOption } from "../../query/date-options.ts";
import { CliError } from "../errors.ts";
import { shortSessionIds } from "../../query/known-ids.ts";
import { oneLine } from "../../render/control-chars.ts";

const ALIASES: Record<string, string> = { tool: "toolResult", bash: "bashExecution" };

function roles(value: unknown): string[] | undefined {
  if (typeof value !== "string") return undefined;
  const list = value.split(",").map((r) => r.trim()).filter(Boolean).map((r) => ALIASES[r] ?? r);
  const bad = list.find((r) => !(DOC_ROLES as readonly string[]).includes(r));
  if (bad) throw new CliError("bad-option", `--role: unknown role "${bad}"`, `Use one or more of ${DOC_ROLES.join(", ")} (or tool, bash), separated by commas`);
  return list;
}

function query(source: string, opts: Record<string, unknown>): SearchQuery {
  try {
    return parseSearchQuery(source, { regex: Boolean(opts.regex), ignoreCase: Boolean(opts.ignoreCase) });
  } catch (error) {
    throw new CliError("bad-query", `Cannot search for "${source}": ${(error as Error).message}`, opts.regex ? "Check the regular expression" : "Give at least one word");
  }
}

/** The snippet with its matches marked: coloured on a terminal, else `**like this**`. */
function marked(snippet: Snippet, c: Colors): string {
  let out = "";
  let at = 0;
  for (const [a, b] of snippet.marks) {
    const match = snippet.text.slice(a, b);
    out += snippet.text.slice(at, a) + (c.isColorSupported ? c.bold(c.yellow(match)) : `**${match}**`);
    at = b;
  }
  return out + snippet.text.slice(at);
}

function hitJson(hit: SearchHit, session: SessionInfo | undefined) {
  return {
    path: hit.path,
    sessionId: session?.id ?? null,
    cwd: session?.cwd ?? null,
    name: session?.name ?? null,
    entryId: hit.entryId,
    role: hit.role,
    part: hit.part,
    timestamp: hit.timestamp,
    line: hit.line,
    snippet: hit.snippet.text,
    marks: hit.snippet.marks,
  };
}

/** `pi-session search <query>`. */
export const searchCommand: CommandSpec = {
  name: "search",
  summary: "Search the text of sessions: messages, tool output, names, labels and summaries",
  args: ["<query...>"],
  options: [
    { flags: "-a, --all", description: "search every project (default: the sessions of this directory)" },
    { flags: "--regex", description: "the query is a JavaScript regular expression (case-sensitive unless -i)" },
    { flags: "-i, --ignore-case", description: "with --regex: ignore case (plain queries always do)" },
    { flags: "--role <roles>", description: `only these roles, comma-separated: ${DOC_ROLES.join(", ")} (or tool, bash)` },
    { flags: "--thinking", description: "also search the assistant's thinking" },
    { flags: "--since <date>", description: "only entries from this day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d)" },
    { flags: "--until <date>", description: "only entries up to this day or month, or before this ISO time" },
    { flags: "--tz <zone>", description: "time zone of day bounds (default: this machine's)" },
    { flags: "--limit <n>", description: "print at most n hits, newest first", default: "50" },
  ],
  notes: [
    "Query: every word must occur (case-insensitively, at the start of a word: pars finds parser),",
    'anywhere in the entry and in any order; "quoted words" must occur together, as a phrase',
    "(quote them for the shell too: pi-session search '\"npm test\"'). --regex takes a pattern instead.",
    "Exits 1 when nothing matches.",
  ],
  examples: ['pi-session search "tree walk" --all', "pi-session search '\"npm test\" failed'", "pi-session search --regex 'TODO\\(\\w+\\)' --role assistant", "pi-session search parser --since 7d --json | jq '.[].entryId'"],
  async run(ctx, words, opts) {
    const source = words.join(" ");
    const q = query(source, opts);
    const limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new CliError("bad-option", `--limit must be a whole number above 0, not "${opts.limit}"`, "Pass e.g. --limit 20");
    const filter = docFilter({
      roles: roles(opts.role),
      thinking: Boolean(opts.thinking),
      since: dateOption(ctx, "since", opts.since),
      until: dateOption(ctx, "until", opts.until),
      tz: timeZoneOption(opts.tz),
    });
    const { result, sessions, short } = await withCatalog(ctx, async (catalog) => {
      const scope = await sessionScope(ctx, Boolean(opts.all));
      const [refresh, done] = withProgress(ctx, "Searching sessions", { listedDirs: scope.dirs });
      try {
        const found = await searchSessions(catalog, scope, q, { limit, filter, cwdFilter: scope.cwdFilter, processCwd: ctx.deps.storage.processCwd, refresh });
        // Printed ids are unique among every project's sessions, so each resolves back to its own.
        const ids = ctx.json ? [] : [...new Set(found.result.hits.map((hit) => found.sessions.get(hit.path)?.id ?? "?"))];
        return { ...found, short: await shortSessionIds(ctx, catalog, ids) };
      } finally {
        done();
      }
    });
    if (ctx.json) {
      ctx.outJson(result.hits.map((hit) => hitJson(hit, sessions.get(hit.path))));
      return result.hits.length ? 0 : 1;
    }
    if (result.hits.length === 0) {
      ctx.note(`No hits for ${JSON.stringify(source)}${opts.all ? "" : "; try --all"}`);
      return 1;
    }
    const c = ctx.color;
    const home = ctx.deps.storage.home;
    let current: string | undefined;
    for (const hit of result.hits) {
      if (hit.path !== current) {
        const s = sessions.get(hit.path);
        if (current !== undefined) ctx.out("");
        ctx.out(`${c.cyan(oneLine(short.get(s?.id ?? "?")!))}  ${c.bold(oneLine(s?.name ?? s?.firstMessage ?? ""))}  ${c.dim(oneLine(tildePath(hit.path, home)))}`);
        current = hit.path;
      }
      const role = hit.part === "thinking" ? "thinking" : hit.role;
      ctx.out(`  ${c.dim(oneLine(hit.timestamp ?? "?"))}  ${oneLine(hit.entryId ?? "-")}  ${oneLine(role).padEnd(13)} ${marked(hit.snippet, c)}`);
    }
    if (result.more) ctx.note(`Showing the newest ${limit} hits; pass --limit to see more`);
    return 0;
  },
};
