/**
 * `list`: the sessions of this directory (or of every project), newest first, as a
 * table for people, JSON or NDJSON for scripts.
 * @module
 */
import { LIST_SORTS, type ListOptions, type ListSort, listSessions } from "../../query/list.ts";
import { rowJson, withListedRows } from "../../query/list-rows.ts";
import { setJitPolicy } from "../../io/jit-policy.ts";
import type { CommandSpec } from "../command.ts";
import { writeJsonArray } from "../output/json-array.ts";
import { printTableBytes } from "./list-bytes.ts";
import { mapped, printListedTable, printTable, writeLines } from "./list-table.ts";

/** The JIT policy of a listing (io/jit-policy.ts). */
const LIST_JIT_POLICY = 8;

/**
 * Ids listed up to which their short forms come from the stored ids nearest each (two lookups an
 * id), not from every known id read in order (25,000 ids: 80 ms).
 */
const FEW_IDS = 2_000;

/** The ids of `rows`, or undefined when there are more than `FEW_IDS`. */
function fewIds(rows: Iterable<{ id: string }>): string[] | undefined {
  const ids: string[] = [];
  for (const row of rows) {
    if (ids.length === FEW_IDS) return undefined;
    ids.push(row.id);
  }
  return ids;
}

export const listCommand: CommandSpec = {
  name: "list",
  checksLater: true,
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
    // One pass over every session, each loop run once per session: compiled less eagerly (io/jit-policy.ts).
    setJitPolicy(LIST_JIT_POLICY);
    const table = !opts.ndjson && !ctx.json;
    const query = typeof opts.search === "string" ? opts.search : undefined;
    const options: ListOptions = {
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
    };
    const write = (text: string) => ctx.deps.stdout(text);
    const target = { colors: ctx.color, width: ctx.width, now: ctx.deps.now(), home: ctx.deps.storage.home, write, writeBytes: ctx.deps.stdoutBytes };
    // Found nothing: exit 1 in every output mode (SPEC §4), with an empty array for --json.
    const none = () => {
      if (table) {
        const what = query !== undefined ? `No sessions match ${JSON.stringify(query)}` : opts.named ? "No named sessions" : "No sessions";
        const when = [
          typeof opts.model === "string" ? ` by a model matching ${JSON.stringify(opts.model)}` : "",
          typeof opts.since === "string" ? ` modified since ${opts.since}` : "",
          typeof opts.until === "string" ? ` modified until ${opts.until}` : "",
        ].join("");
        ctx.note(opts.all ? `${what}${when}.` : `${what}${when} for ${ctx.cwd}; try --all`);
      }
      return 1;
    };
    // Read in order from the catalog's rows where it keeps them: nothing is held whole.
    const streamed = await withListedRows(ctx, options, async (listed) => {
      let count: number;
      if (opts.ndjson) count = writeLines(mapped(listed.rows(), (row) => JSON.stringify(rowJson(row))), write);
      else if (ctx.json) count = writeJsonArray(mapped(listed.rows(), rowJson), write);
      else if (options.limit === undefined) {
        // One project's sessions: their short ids from the ids nearest each, where they are few.
        const shown = opts.all ? undefined : fewIds(listed.rows(false, false));
        count = printTableBytes(listed, Boolean(opts.all), target) ?? printListedTable(listed, Boolean(opts.all), target, shown && await listed.shortIdsOf(shown));
      } else {
        const page = [...listed.rows()];
        const ids = new Set(page.map((row) => row.id));
        const shorts = ids.size <= FEW_IDS ? await listed.shortIdsOf([...ids]) : listed.shortIds((id) => ids.has(id));
        count = page.length;
        if (count > 0) printTable(page.map((row) => ({ ...row, short: shorts.get(row.id)! })), Boolean(opts.all), target);
      }
      return count === 0 ? none() : 0;
    });
    if (streamed !== undefined) return streamed;
    const { value: sessions, shortIds } = await listSessions(ctx, options);
    if (opts.ndjson) writeLines(mapped(sessions, (s) => JSON.stringify(s)), write);
    else if (ctx.json) ctx.outJson(sessions);
    else {
      const rows = sessions.map((s) => ({
        modified: new Date(s.modified ?? NaN).getTime(),
        messages: s.messageCount,
        cwd: s.cwd,
        name: s.name,
        first: s.firstMessage,
        short: shortIds!.get(s.id)!,
      }));
      printTable(rows, Boolean(opts.all), target);
    }
    return sessions.length === 0 ? none() : 0;
  },
};
