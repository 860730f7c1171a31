/**
 * The MCP server object, transport-agnostic: `createMcpServer` registers the tools, the session
 * resource template and their handlers; `stdio.ts` connects it to stdin/stdout, and an HTTP
 * surface can connect the same object to a Streamable HTTP transport. Read-only.
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Redactor } from "../core/redact/redactor.ts";
import { resolvePath } from "../core/storage/paths.ts";
import { errorValue } from "../query/errors.ts";
import { QueryError } from "../query/errors.ts";
import { listSessions } from "../query/list.ts";
import { resolveSessionRef } from "../query/resolve/session-ref.ts";
import { VERSION } from "../version.ts";
import { argumentsKey, cutText, decodeCursor, encodeCursor, fitItem, jsonLength, pageOf } from "./page.ts";
import { outputSchema } from "./output-schema.ts";
import { checkParams } from "./params.ts";
import { failure, QueryRunner, type QueryRuntime, type QueryScope, runCli } from "./queries.ts";
import { type Params, type ToolDef, TOOLS } from "./tools.ts";

/** What the server is started with (the `mcp` command's flags). */
export interface McpServerOptions {
  runtime: QueryRuntime;
  /** `--agent-dir`, `--session-dir`, and the server's project directory (`--cwd` or the process cwd). */
  scope: QueryScope;
  /** `--all`: every project's sessions, not only the project's. */
  all: boolean;
  /** `--max-chars`: the character budget of a result (default `DEFAULT_MAX_CHARS`). */
  maxChars?: number;
  /** Mask secrets (default true; `--no-redact`). */
  redact?: boolean;
  /** Lines for the server's log (stderr). */
  log?: (line: string) => void;
  /** The queries' runner (and its open catalog) to share between servers; the caller closes it. */
  queries?: QueryRunner;
}

/**
 * Default budget: pi hands a model at most 20 KiB of an MCP result's text and cuts the middle
 * out of a longer one, so a page stays below that.
 */
export const DEFAULT_MAX_CHARS = 16_000;

export const RESOURCE_TEMPLATE = "pi-session://session/{id}";

/** What a tool call returns besides `result`. */
interface PageInfo {
  offset?: number;
  count?: number;
  total?: number;
  nextCursor: string | null;
  cutStrings: number;
  redacted: number;
  note: string;
}

class ToolFailure extends Error {}

/**
 * A JSON-RPC error the SDK passes on with its code and message as they are (an `McpError` would
 * prefix "MCP error -32602:" to the message, and clients prefix it again).
 */
class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

function toolError(message: string, hint: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: hint ? `${message}\nhint: ${hint}` : message }] };
}

/**
 * The server for `options`; connect it to a transport (`server.connect(transport)`).
 *
 * @example
 * ```ts
 * const server = createMcpServer({ runtime, scope: { cwd: "/work/app" }, all: false });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer(options: McpServerOptions): Server {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const redact = options.redact ?? true;
  const log = options.log ?? (() => {});
  const { runtime, scope } = options;
  // Shared when given (an HTTP handler makes a server per request); else this server's own, closed with it.
  const queries = options.queries ?? new QueryRunner(runtime, log);
  const serverCwd = resolvePath(runtime.storage.processCwd, scope.cwd ?? runtime.storage.processCwd);
  const server = new Server(
    { name: "pi-session", title: "pi sessions", version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        `Past pi coding-agent sessions (${options.all ? "every project" : `the project ${serverCwd}`}), read-only: search_sessions finds messages, ` +
        "list_sessions lists sessions, session_info/session_tree/read_session/get_context read one session (session = id, unique id prefix, path, or @ for the latest session of the server's directory), " +
        "files_touched finds who read or changed a file, usage_stats sums tokens and cost. Long results come in pages: pass nextCursor back as cursor.",
    },
  );

  /** The project a call covers: `project` if the scope allows it, else the server's. */
  function callScope(tool: ToolDef, params: Params): { scope: QueryScope; all: boolean } {
    const project = typeof params.project === "string" ? resolvePath(serverCwd, params.project) : undefined;
    if (project === undefined) return { scope, all: Boolean(tool.scoped && options.all) };
    if (!options.all && project !== serverCwd) {
      throw new ToolFailure(`project ${project} is outside this server's scope (the sessions of ${serverCwd})|Leave project out, or start the server with --all to see every project`);
    }
    return { scope: { ...scope, cwd: project }, all: false };
  }

  /**
   * `@`: the most recent session of the server's directory, as the CLI's `@` (pi -c) is for its
   * cwd; the same with --all (tools that read one session take no `project`).
   */
  async function latestSession(): Promise<string> {
    try {
      return (await queries.run(scope, (env) => resolveSessionRef(env, "@"))).value;
    } catch (error) {
      if (!(error instanceof QueryError) || error.code !== "no-session") throw error;
      throw new ToolFailure(`no session "@": ${serverCwd} has no sessions|Pass a session id from list_sessions or search_sessions`);
    }
  }

  /** The path of the session `ref` names among the sessions the server may read. */
  async function sessionPath(given: string): Promise<string> {
    const ref = given === "@" ? await latestSession() : given;
    const { value: sessions } = await queries.run(scope, async (env) => (await listSessions(env, { all: options.all })).value);
    const where = options.all ? "in any project" : `among the sessions of ${serverCwd}`;
    const byPath = sessions.find((s) => s.path === resolvePath(serverCwd, ref));
    if (byPath) return byPath.path;
    const exact = sessions.filter((s) => s.id === ref);
    const matches = exact.length > 0 ? exact : sessions.filter((s) => s.id.startsWith(ref));
    if (matches.length === 1) return matches[0].path;
    if (matches.length > 1) {
      throw new ToolFailure(`session "${ref}" is ambiguous: ${matches.length} sessions ${where} have ids starting with it|Pass more characters of the id (list_sessions shows them)`);
    }
    const wider = options.all ? "" : "; the server sees only this project's sessions (start it with --all for every project)";
    throw new ToolFailure(`no session "${ref}" ${where}|Pass a session id, a unique prefix or a path from list_sessions or search_sessions${wider}`);
  }

  async function callTool(tool: ToolDef, params: Params): Promise<CallToolResult> {
    const budget = Math.min(typeof params.maxChars === "number" ? params.maxChars : maxChars, maxChars);
    // The page size may change between pages; what the list is may not.
    const key = argumentsKey(params, ["cursor", "maxChars", ...(tool.name === "read_session" ? ["limit"] : [])]);
    const offset = typeof params.cursor === "string" ? decodeOrFail(tool.name, key, params.cursor) : 0;
    const ref = tool.session ? await sessionPath(tool.session(params)) : undefined;
    const { scope: runScope, all } = callScope(tool, params);
    const answer = await queries.run(runScope, (env) => tool.query(env, params, ref, all));
    const hint = "raise maxChars, or read a narrower part";
    const masks = (part: unknown): { value: unknown; redacted: number } => {
      if (!redact) return { value: part, redacted: 0 };
      const redactor = new Redactor();
      return { value: redactor.value(part), redacted: redactor.total };
    };
    let result: unknown;
    let page: PageInfo;
    if (tool.list) {
      const list = tool.list;
      const items = list.get(answer.value, params);
      if (offset > items.length) throw new ToolFailure(`cursor is past the end (${items.length} ${list.noun}): the session changed, or the arguments differ|Start again without cursor`);
      // What is around the list (a path, a leaf id) is masked once; the items as the page takes them.
      const shell = masks(list.with(answer.value, []));
      const prepare = (item: unknown) => {
        const cut = tool.item ? tool.item(params, item) : { value: item, cut: 0 };
        const masked = masks(cut.value);
        return { value: masked.value, cut: cut.cut, redacted: masked.redacted };
      };
      const limit = tool.name === "read_session" && typeof params.limit === "number" ? params.limit : Infinity;
      const p = pageOf(items, offset, Math.max(200, budget - jsonLength(shell.value) - 400), hint, limit, prepare);
      result = list.with(shell.value, p.items);
      const nextCursor = p.next === null ? null : encodeCursor(tool.name, key, p.next);
      const shown = p.items.length === 0 ? `no ${list.noun}` : `${list.noun} ${offset + 1}–${offset + p.items.length} of ${items.length}`;
      const redacted = shell.redacted + p.redacted;
      page = {
        offset,
        count: p.items.length,
        total: items.length,
        nextCursor,
        cutStrings: p.cut,
        redacted,
        note: `${shown}${nextCursor ? "; more: call again with cursor = nextCursor" : ""}${p.cut ? `; ${p.cut} long text(s) cut (marked …[cut: …])` : ""}${redacted ? `; ${redacted} secret(s) masked` : ""}`,
      };
    } else {
      const masked = masks(answer.value);
      const fitted = fitItem(masked.value, Math.max(200, budget - 400), hint);
      result = fitted.value;
      page = {
        nextCursor: null,
        cutStrings: fitted.cut,
        redacted: masked.redacted,
        note: `complete${fitted.cut ? `; ${fitted.cut} long text(s) cut (marked …[cut: …])` : ""}${masked.redacted ? `; ${masked.redacted} secret(s) masked` : ""}`,
      };
    }
    // What the query reported (skipped broken lines, say) belongs to the answer.
    if (answer.warnings.length > 0) page.note += `; warning: ${answer.warnings.join("; warning: ")}`;
    const structured = { result, page };
    return { content: [{ type: "text", text: `${page.note}\n${JSON.stringify(result)}` }], structuredContent: structured };
  }

  function decodeOrFail(tool: string, key: string, cursor: string): number {
    try {
      return decodeCursor(tool, key, cursor);
    } catch (error) {
      throw new RpcError(ErrorCode.InvalidParams, (error as Error).message);
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: "object" },
      outputSchema: outputSchema(tool.resultSchema),
      annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}" (tools: ${TOOLS.map((t) => t.name).join(", ")})`);
    const problem = checkParams(request.params.arguments, tool.inputSchema);
    if (problem) throw new RpcError(ErrorCode.InvalidParams, `${tool.name}: ${problem}`);
    const params = (request.params.arguments ?? {}) as Params;
    try {
      return await callTool(tool, params);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      if (error instanceof ToolFailure) {
        const [message, hint] = error.message.split("|");
        return toolError(message, hint ?? "");
      }
      // A problem a user can cause (a --session-dir that is a file, an unreadable file): said as it is.
      const known = errorValue(error);
      if (known) return toolError(known.message, known.hint);
      log(`pi-session mcp: ${tool.name} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      return toolError(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`, "This is a bug in pi-session; the server's stderr has the details");
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{
      uriTemplate: RESOURCE_TEMPLATE,
      name: "session",
      title: "A pi session as Markdown",
      description: `The transcript of a session's current branch as Markdown (cut to ${maxChars} characters; read_session pages through the rest)`,
      mimeType: "text/markdown",
    }],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const { value: sessions } = await queries.run(scope, async (env) => (await listSessions(env, { all: options.all, limit: 50 })).value);
    return {
      resources: sessions.map((s) => ({
        uri: `pi-session://session/${s.id}`,
        name: s.id,
        title: s.name ?? (s.firstMessage.slice(0, 80) || s.id),
        description: s.cwd,
        mimeType: "text/markdown",
      })),
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const match = /^pi-session:\/\/session\/([^/?#]+)$/.exec(uri);
    if (!match) throw new RpcError(ErrorCode.InvalidParams, `Unknown resource ${uri}: resources look like pi-session://session/<id>`);
    let path: string;
    try {
      path = await sessionPath(decodeURIComponent(match[1]));
    } catch (error) {
      if (error instanceof ToolFailure) throw new RpcError(ErrorCode.InvalidParams, error.message.split("|").join(". "));
      throw error;
    }
    const output = await runCli(runtime, scope, ["export", "--format", "markdown", "-o", "-", ...(redact ? ["--redact"] : ["--no-redact"]), "--", path]);
    if (output.exitCode !== 0) {
      const { message, hint } = failure(output, "export");
      throw new RpcError(ErrorCode.InternalError, hint ? `${message}. ${hint}` : message);
    }
    const text = cutText(output.stdout, maxChars, "the transcript goes on: page through it with read_session");
    return { contents: [{ uri, mimeType: "text/markdown", text }] };
  });

  if (!options.queries) server.onclose = () => void queries.close();
  return server;
}
