/**
 * The MCP tools: for each, what a model reads about it, its input schema, the query whose value
 * it returns (what the matching command prints with `--json`, and so that command's JSON Schema
 * from docs/schema as the output's `result`), and which list in that value is paged under the
 * character budget. Mapping only: parameters become query options.
 * @module
 */
import contextSchema from "../../docs/schema/context.schema.json" with { type: "json" };
import contextLlmSchema from "../../docs/schema/context-llm.schema.json" with { type: "json" };
import filesSchema from "../../docs/schema/files.schema.json" with { type: "json" };
import infoSchema from "../../docs/schema/info.schema.json" with { type: "json" };
import listSchema from "../../docs/schema/list.schema.json" with { type: "json" };
import searchSchema from "../../docs/schema/search.schema.json" with { type: "json" };
import showSchema from "../../docs/schema/show.schema.json" with { type: "json" };
import statsSchema from "../../docs/schema/stats.schema.json" with { type: "json" };
import treeSchema from "../../docs/schema/tree.schema.json" with { type: "json" };
import type { TreeFilter } from "../core/tree/tree-filter.ts";
import { sessionContext } from "../query/context.ts";
import type { QueryEnv } from "../query/env.ts";
import { versioned } from "../query/json-version.ts";
import { fileSessions } from "../query/files.ts";
import { sessionInfo } from "../query/info.ts";
import { listSessions, type ListSort } from "../query/list.ts";
import { searchText } from "../query/search.ts";
import { type StatsBy, usageStats } from "../query/stats.ts";
import { sessionTranscript } from "../query/transcript.ts";
import { sessionTree } from "../query/tree.ts";
import { cutEntry } from "./entry-cut.ts";

type Json = Record<string, unknown>;
export type Params = Record<string, unknown>;

/** Where a tool's paged list sits in its value. */
export interface PagedList {
  /** Noun for notes: "hits", "entries". */
  noun: string;
  get(value: unknown, params: Params): unknown[];
  with(value: unknown, items: unknown[]): unknown;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  /** The `result`'s JSON Schema (a `--json` shape). */
  resultSchema: Json;
  /** The one session the call reads, when it reads one (checked against the server's scope). */
  session?: (params: Params) => string;
  /**
   * The value the matching command prints with `--json` for `params` (`session` already resolved
   * to the path `ref`); `all` when the call covers every project.
   */
  query(env: QueryEnv, params: Params, ref: string | undefined, all: boolean): Promise<unknown>;
  /** Takes `project` (a project other than the server's, or every project). */
  scoped?: boolean;
  list?: PagedList;
  /** Applied to each list item before paging (read_session's cuts of tool outputs and thinking). */
  item?: (params: Params, item: unknown) => { value: unknown; cut: number };
}

const arrayList = (noun: string): PagedList => ({ noun, get: (v) => v as unknown[], with: (_v, items) => items });
const fieldList = (noun: string, key: string): PagedList => ({
  noun,
  get: (v) => (v as Json)[key] as unknown[],
  with: (v, items) => ({ ...(v as Json), [key]: items }),
});

const SESSION = {
  type: "string",
  minLength: 1,
  description: "The session: its id, a unique prefix of the id (8 characters usually do), the path of its .jsonl file, or @ for the most recently written session of the server's directory (what pi -c would continue)",
};
const ENTRY = {
  type: "string",
  minLength: 1,
  description: "An entry of the session: its id, a unique prefix of it, or label:NAME for the entry labelled NAME",
};
const PROJECT = {
  type: "string",
  minLength: 1,
  description: "Only this project's sessions: the directory pi ran in (absolute path). Default: the server's scope (its project, or every project when started with --all)",
};
const DATE = (what: string) => ({
  type: "string",
  minLength: 1,
  description: `${what}: a day or month (YYYY-MM-DD, YYYY-MM), an ISO time, or a span back from now (7d, 12h, 2w)`,
});
const PAGING = {
  cursor: { type: "string", description: "The nextCursor of a previous call with the same arguments, to get the next page" },
  maxChars: { type: "integer", minimum: 1000, description: "Character budget of this result (default and upper bound: the server's --max-chars)" },
};

/** JSON Schema of a `--json` shape, as an output schema takes it (no `$schema` or title). */
function resultSchema(schema: Json): Json {
  const { $schema: _s, title: _t, ...rest } = schema;
  return rest;
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

const ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom", "summary", "label", "name"];

export const TOOLS: readonly ToolDef[] = [
  {
    name: "search_sessions",
    scoped: true,
    title: "Search past pi sessions",
    description:
      "Full-text search over the messages of past pi coding-agent sessions (user prompts, assistant replies, tool results, bash output, summaries), newest hits first. " +
      'Query syntax: every word must occur, case-insensitively, at the start of a word ("pars" finds "parser"), anywhere in the entry and in any order; "quoted words" must occur together as a phrase; re:PATTERN is a case-insensitive JavaScript regular expression. ' +
      "Each hit gives the session (sessionId, path, cwd, name), the entryId, role, timestamp and a snippet with the match; pass sessionId and entryId to read_session or get_context to read around it.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: 'Words, "a phrase", or re:REGEX' },
        project: PROJECT,
        role: { type: "array", items: { type: "string", enum: ROLES }, minItems: 1, description: "Only entries of these roles" },
        thinking: { type: "boolean", description: "Also search the assistant's thinking (default false)" },
        since: DATE("Only entries from"),
        until: DATE("Only entries up to"),
        limit: { type: "integer", minimum: 1, maximum: 1000, description: "At most this many hits in all (default 50); pages of them fit the budget" },
        ...PAGING,
      },
      required: ["query"],
      additionalProperties: false,
    },
    resultSchema: resultSchema(searchSchema),
    query: async (env, p, _ref, all) => {
      // pi's /resume syntax: re:PATTERN is a case-insensitive regular expression.
      const query = String(p.query);
      const regex = query.startsWith("re:");
      return (await searchText(env, {
        query: regex ? query.slice(3) : query,
        regex,
        ignoreCase: regex,
        all,
        roles: p.role as string[] | undefined,
        thinking: p.thinking === true,
        since: str(p.since),
        until: str(p.until),
        limit: typeof p.limit === "number" ? p.limit : 50,
      })).value;
    },
    list: arrayList("hits"),
  },
  {
    name: "list_sessions",
    scoped: true,
    title: "List past pi sessions",
    description:
      "Lists past pi sessions (id, path, cwd, name, created, modified, message count, first user message), newest first by default. " +
      'query filters as pi\'s /resume does: every word must match the name, id, messages or cwd (fuzzily in name and cwd); "quoted words" match as a phrase; re:PATTERN is a case-insensitive regular expression. ' +
      "since keeps the sessions last modified on or after a day, a month, an ISO time or a span back (7d: the last seven days); until those last modified on or before one. " +
      "model keeps the sessions with a reply from a model whose provider/model contains it (any case).",
    inputSchema: {
      type: "object",
      properties: {
        project: PROJECT,
        query: { type: "string", minLength: 1, description: "Only sessions matching this /resume query" },
        named: { type: "boolean", description: "Only sessions that have a name" },
        since: DATE("Only sessions last modified on or after"),
        until: DATE("Only sessions last modified on or before"),
        model: { type: "string", minLength: 1, description: "Only sessions with a reply from a model whose provider/model contains this (any case)" },
        sort: { type: "string", enum: ["modified", "created", "name", "messages", "size"], description: "Sort order (default modified, newest first)" },
        limit: { type: "integer", minimum: 1, description: "At most this many sessions in all (default: all); pages of them fit the budget" },
        ...PAGING,
      },
      additionalProperties: false,
    },
    resultSchema: resultSchema(listSchema),
    query: async (env, p, _ref, all) =>
      (await listSessions(env, {
        all,
        search: str(p.query),
        named: p.named === true,
        since: str(p.since),
        until: str(p.until),
        model: str(p.model),
        sort: p.sort as ListSort | undefined,
        limit: p.limit as number | undefined,
      })).value,
    list: arrayList("sessions"),
  },
  {
    name: "session_info",
    title: "Facts of one session",
    description:
      "What pi's /session shows about one session: path, id, cwd, name, parent session, created/modified, entry counts by type, message counts by role, the active leaf, how many leaves (branches) and labels, tokens and cost (inherited part from a fork's parent apart), models used, and problems found reading the file.",
    inputSchema: { type: "object", properties: { session: SESSION }, required: ["session"], additionalProperties: false },
    resultSchema: resultSchema(infoSchema),
    session: (p) => String(p.session),
    query: async (env, _p, ref) => versioned((await sessionInfo(env, { ref: ref! })).value),
  },
  {
    name: "read_session",
    title: "Read a session's conversation",
    description:
      "One branch of a session, root first, as stored: messages (user, assistant with text/thinking/tool calls, tool results, bash executions), compactions, branch summaries, model changes, labels. " +
      "By default the branch that ends at the session's last entry; entry picks another end. Paged: each call returns as many entries as fit the character budget (or limit), with nextCursor for the rest. " +
      "Tool outputs are cut to toolOutputChars (default 2000) and thinking to thinkingChars (default 500), with a mark saying how much was left out, unless full is true.",
    inputSchema: {
      type: "object",
      properties: {
        session: SESSION,
        entry: { ...ENTRY, description: `${ENTRY.description}. The branch ends here (default: the last entry)` },
        limit: { type: "integer", minimum: 1, description: "At most this many entries per page" },
        toolOutputChars: { type: "integer", minimum: 0, description: "Keep this many characters of each tool result and bash output (default 2000)" },
        thinkingChars: { type: "integer", minimum: 0, description: "Keep this many characters of each thinking block (default 500)" },
        full: { type: "boolean", description: "Do not cut tool outputs and thinking (the page budget still applies)" },
        ...PAGING,
      },
      required: ["session"],
      additionalProperties: false,
    },
    resultSchema: resultSchema(showSchema),
    session: (p) => String(p.session),
    query: async (env, p, ref) => versioned((await sessionTranscript(env, { ref: ref!, leaf: str(p.entry) })).value),
    list: fieldList("entries", "entries"),
    item: cutEntry,
  },
  {
    name: "session_tree",
    title: "A session's tree outline",
    description:
      "The outline of a session's tree, as pi's /tree shows it: one row per entry with id, parentId (nearest shown ancestor), depth, type, role, label, whether it is on the active path, and a one-line text. " +
      "Branches show where the conversation was forked or rewound. maxDepth leaves out deeper rows (said in the page note); pages fit the character budget.",
    inputSchema: {
      type: "object",
      properties: {
        session: SESSION,
        filter: { type: "string", enum: ["default", "no-tools", "user-only", "labeled-only", "all"], description: "Which entries: default hides settings entries, no-tools also tool results, user-only, labeled-only, all" },
        maxDepth: { type: "integer", minimum: 0, description: "Leave out rows deeper than this" },
        ...PAGING,
      },
      required: ["session"],
      additionalProperties: false,
    },
    resultSchema: resultSchema(treeSchema),
    session: (p) => String(p.session),
    query: async (env, p, ref) => versioned((await sessionTree(env, { ref: ref!, filter: p.filter as TreeFilter | undefined })).value),
    list: {
      noun: "rows",
      get: (v, p) => {
        const rows = (v as { rows: { depth: number }[] }).rows;
        return typeof p.maxDepth === "number" ? rows.filter((r) => r.depth <= (p.maxDepth as number)) : rows;
      },
      with: (v, items) => ({ ...(v as Json), rows: items }),
    },
  },
  {
    name: "get_context",
    title: "The model's context at an entry",
    description:
      "The exact context pi sent the model at an entry of a session (default: the last entry): format json gives {messages, thinkingLevel, model} as pi builds it (compactions replaced by their summaries, branch summaries in place); " +
      "format llm gives the provider-facing messages (convertToLlm). Messages are paged under the character budget with nextCursor; a message too long for a page alone has its longest texts cut, with a mark.",
    inputSchema: {
      type: "object",
      properties: { session: SESSION, entry: ENTRY, format: { type: "string", enum: ["json", "llm"], description: "json (default) or llm" }, ...PAGING },
      required: ["session"],
      additionalProperties: false,
    },
    resultSchema: { anyOf: [resultSchema(contextSchema), resultSchema(contextLlmSchema)] },
    session: (p) => String(p.session),
    // pi's own shapes: printed without schemaVersion.
    query: async (env, p, ref) => (await sessionContext(env, { ref: ref!, leaf: str(p.entry), format: p.format === "llm" ? "llm" : "json" })).value,
    list: {
      noun: "messages",
      get: (v) => (Array.isArray(v) ? v : (v as { messages: unknown[] }).messages),
      with: (v, items) => (Array.isArray(v) ? items : { ...(v as Json), messages: items }),
    },
  },
  {
    name: "files_touched",
    scoped: true,
    title: "Sessions that touched a file",
    description:
      "Which sessions and entries read, edited, wrote, listed or searched a file, anything under a directory, or what a glob matches: from tool calls, bash commands and the file lists of compactions and branch summaries. " +
      "Glob syntax: * is any characters but /, ? one character but /, ** a whole path segment for any number of folders, {a,b} either one (src/**/*.{ts,tsx}); [ ] are plain characters. " +
      "A glob is matched against the whole absolute path each session used, and a path also counts when a folder above it matches. " +
      "Relative paths and globs resolve against the server's directory; each use gives entryId, timestamp, operation, tool, the path as written and resolved. Sessions with the latest use first.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: "A file or directory path, or a glob (absolute, ~/…, or relative to the server's directory)" },
        project: PROJECT,
        ...PAGING,
      },
      required: ["path"],
      additionalProperties: false,
    },
    resultSchema: resultSchema(filesSchema),
    query: async (env, p, _ref, all) => (await fileSessions(env, { path: String(p.path), all })).value,
    list: arrayList("sessions"),
  },
  {
    name: "usage_stats",
    scoped: true,
    title: "Token and cost totals",
    description:
      "Tokens (input, output, cache read/write) and cost of past sessions, grouped by hour, day, week, month, session, model or project, with totals; entries that forks and clones copied from their parent are counted once.",
    inputSchema: {
      type: "object",
      properties: {
        by: { type: "string", enum: ["hour", "day", "week", "month", "session", "model", "project"], description: "How to group rows (default day)" },
        since: DATE("From"),
        until: DATE("Up to"),
        project: PROJECT,
        breakdown: { type: "boolean", description: "Per-model totals under each row (not with by: model)" },
        ...PAGING,
      },
      additionalProperties: false,
    },
    resultSchema: resultSchema(statsSchema),
    query: async (env, p, _ref, all) =>
      versioned((await usageStats(env, { all, by: p.by as StatsBy | undefined, since: str(p.since), until: str(p.until), breakdown: p.breakdown === true })).value),
    list: fieldList("rows", "rows"),
  },
];
