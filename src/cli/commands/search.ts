/**
 * `search <query>`: full text over what was said and done in sessions (user, assistant, tool
 * and bash text; thinking on request; names, labels and summaries). Uses the catalog's FTS5
 * index where SQLite is available, else streams the files; both give the same hits.
 * @module
 */
import type { Snippet } from "../../core/search/snippet.ts";
import { tildePath } from "../../core/storage/paths.ts";
import { DOC_ROLES, searchText } from "../../query/search.ts";
import type { CommandSpec } from "../command.ts";
import type { Colors } from "../context.ts";
import { oneLine } from "../../render/control-chars.ts";

/** The snippet with its matches marked: coloured on a terminal, else `**like this**`. */
function marked(snippet: Snippet, c: Colors): string {
  let out = "";
  let at = 0;
  // Each piece is made safe on its own, so the marks' offsets still hold.
  for (const [a, b] of snippet.marks) {
    const match = oneLine(snippet.text.slice(a, b));
    out += oneLine(snippet.text.slice(at, a)) + (c.isColorSupported ? c.bold(c.yellow(match)) : `**${match}**`);
    at = b;
  }
  return out + oneLine(snippet.text.slice(at));
}

/** `pi-session search <query>`. */
export const searchCommand: CommandSpec = {
  name: "search",
  checksLater: true,
  summary: "Search the text of sessions: messages, tool output, names, labels and summaries",
  args: ["<query...>"],
  options: [
    { flags: "-a, --all", description: "search every project (default: the sessions of this directory)" },
    { flags: "--session <ref>", description: "only this session's entries (a path, id, unique id prefix or @)" },
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
    // On a terminal, a first search does not wait for the full-text index of every session to be built.
    const interactive = !ctx.json && ctx.deps.stdoutIsTTY && ctx.deps.stderrIsTTY;
    const { value, hits, more, sessions, shortIds, indexCold } = await searchText(ctx, {
      query: source,
      all: Boolean(opts.all),
      session: typeof opts.session === "string" ? opts.session : undefined,
      regex: Boolean(opts.regex),
      ignoreCase: Boolean(opts.ignoreCase),
      roles: typeof opts.role === "string" ? opts.role : undefined,
      thinking: Boolean(opts.thinking),
      since: typeof opts.since === "string" ? opts.since : undefined,
      until: typeof opts.until === "string" ? opts.until : undefined,
      tz: typeof opts.tz === "string" ? opts.tz : undefined,
      limit: String(opts.limit),
      shortIds: !ctx.json,
      scanWhenCold: interactive,
    });
    const coldNote = () => {
      if (indexCold) ctx.note("Searched the session files directly: the full-text index is not built yet. `pi-session index` builds it (run it ahead: see the README), then searches answer at once");
    };
    if (ctx.json) {
      ctx.outJson(value);
      return value.length ? 0 : 1;
    }
    if (hits.length === 0) {
      ctx.note(`No hits for ${JSON.stringify(source)}${opts.all ? "" : "; try --all"}`);
      coldNote();
      return 1;
    }
    const c = ctx.color;
    const home = ctx.deps.storage.home;
    let current: string | undefined;
    for (const hit of hits) {
      if (hit.path !== current) {
        const s = sessions.get(hit.path);
        if (current !== undefined) ctx.out("");
        ctx.out(`${c.cyan(oneLine(shortIds!.get(s?.id ?? "?")!))}  ${c.bold(oneLine(s?.name ?? s?.firstMessage ?? ""))}  ${c.dim(oneLine(tildePath(hit.path, home)))}`);
        current = hit.path;
      }
      const role = hit.part === "thinking" ? "thinking" : hit.role;
      ctx.out(`  ${c.dim(oneLine(hit.timestamp ?? "?"))}  ${oneLine(hit.entryId ?? "-")}  ${oneLine(role).padEnd(13)} ${marked(hit.snippet, c)}`);
    }
    if (more) ctx.note(`Showing the newest ${hits.length} hits; pass --limit to see more`);
    coldNote();
    return 0;
  },
};
