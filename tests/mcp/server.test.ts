import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CliDeps } from "../../src/cli/deps.ts";
import { run } from "../../src/cli/run.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { createMcpServer, type McpServerOptions } from "../../src/mcp/server.ts";
import { BIG_ID, BIG_PROJECT, BROKEN_ID, makeSessions, SECRET, SECRET_ID } from "./_sessions.ts";

const NOW = new Date("2026-03-10T12:00:00.000Z");
type Structured = { result: unknown; page: { nextCursor: string | null; note: string; cutStrings: number; redacted: number; total?: number; count?: number } };

describe("pi-session mcp (in-process, SDK client)", () => {
  let dirs: ReturnType<typeof makeSessions>;
  const fs = detectFileSystem();
  const storage = () => ({ env: (name: string) => (name === "TZ" ? "UTC" : undefined), home: dirs.home, processCwd: BIG_PROJECT });
  const clients: Client[] = [];

  async function connect(options: Partial<McpServerOptions> = {}): Promise<Client> {
    const server = createMcpServer({
      runtime: { fs, storage: storage(), now: () => NOW },
      scope: { agentDir: dirs.agentDir, cwd: BIG_PROJECT },
      all: true,
      ...options,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "test", version: "1" });
    await Promise.all([server.connect(a), client.connect(b)]);
    clients.push(client);
    return client;
  }

  /** What `pi-session --agent-dir … <argv> --json` prints, parsed. */
  async function cliJson(argv: string[]): Promise<unknown> {
    let out = "";
    let err = "";
    const deps: CliDeps = {
      fs,
      storage: storage(),
      now: () => NOW,
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
    };
    const code = await run(["--agent-dir", dirs.agentDir, "--cwd", BIG_PROJECT, "--json", ...argv], deps);
    assert.ok(code <= 1, `${argv.join(" ")}: exit ${code}: ${err}`);
    return JSON.parse(out);
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
    const result = await client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    return result.structuredContent as Structured;
  }

  before(() => {
    dirs = makeSessions(60, 20_000);
  });
  after(async () => {
    for (const client of clients) await client.close();
    rmSync(dirs.root, { recursive: true, force: true });
  });

  it("lists eight read-only tools, each with an input and an output schema", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["search_sessions", "list_sessions", "session_info", "read_session", "session_tree", "get_context", "files_touched", "usage_stats"]);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object");
      assert.equal(tool.outputSchema?.type, "object", tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.ok(tool.description!.length > 100, tool.name);
    }
  });

  it("every tool's result equals the matching command's --json output (unredacted, budget large enough)", async () => {
    const client = await connect({ redact: false, maxChars: 50_000_000 });
    const cases: [string, Record<string, unknown>, string[]][] = [
      ["search_sessions", { query: "grep" }, ["search", "--all", "--limit", "50", "--", "grep"]],
      ["search_sessions", { query: "re:exports? x", role: ["assistant"] }, ["search", "--all", "--role", "assistant", "--limit", "50", "--regex", "-i", "--", "exports? x"]],
      ["list_sessions", { sort: "messages" }, ["list", "--all", "--sort", "messages"]],
      ["list_sessions", { project: "/home/dev/webshop" }, ["list", "--cwd", "/home/dev/webshop"]],
      ["list_sessions", { since: "10d" }, ["list", "--all", "--since", "10d"]],
      ["list_sessions", { since: "2026-02-02T00:00:00Z", sort: "created" }, ["list", "--all", "--since", "2026-02-02T00:00:00Z", "--sort", "created"]],
      ["list_sessions", { until: "2026-03-01", model: "gpt" }, ["list", "--all", "--until", "2026-03-01", "--model", "gpt"]],
      ["list_sessions", { model: "SONNET", sort: "created" }, ["list", "--all", "--model", "SONNET", "--sort", "created"]],
      ["session_info", { session: "019c4a8d" }, ["info", "019c4a8d"]],
      ["read_session", { session: "019c4a8d", full: true }, ["show", "--format", "json", "019c4a8d"]],
      ["session_tree", { session: BIG_ID.slice(0, 33), filter: "all" }, ["tree", "--filter", "all", BIG_ID]],
      ["get_context", { session: BIG_ID, entry: "00000010" }, ["context", "--leaf", "00000010", BIG_ID]],
      ["get_context", { session: "019c4a8d", format: "llm" }, ["context", "--format", "llm", "019c4a8d"]],
      ["files_touched", { path: "src/part-3.ts" }, ["files", "--all", "src/part-3.ts"]],
      ["files_touched", { path: "src/part-{3,1?}.ts" }, ["files", "--all", "src/part-{3,1?}.ts"]],
      ["usage_stats", { by: "model" }, ["stats", "--all", "--by", "model"]],
    ];
    for (const [tool, args, argv] of cases) {
      const got = await call(client, tool, args);
      assert.deepEqual(got.result, await cliJson(argv), `${tool} ${JSON.stringify(args)}`);
      assert.equal(got.page.nextCursor, null, tool);
      assert.equal(got.page.cutStrings, 0, tool);
    }
  });

  it("list_sessions until and model keep some sessions, not all, as list --until and --model do", async () => {
    const client = await connect({ redact: false, maxChars: 50_000_000 });
    const all = (await call(client, "list_sessions", {})).result as unknown[];
    for (const args of [{ until: "2026-03-01" }, { model: "sonnet" }]) {
      const kept = (await call(client, "list_sessions", args)).result as unknown[];
      assert.ok(kept.length > 0 && kept.length < all.length, `${JSON.stringify(args)}: ${kept.length} of ${all.length}`);
    }
    const bad = await client.callTool({ name: "list_sessions", arguments: { until: "last tuesday" } });
    assert.equal(bad.isError, true);
  });

  it("list_sessions since keeps the sessions modified since then; a bad date is a tool error saying what is taken", async () => {
    const client = await connect();
    const recent = (await call(client, "list_sessions", { since: "10d" })).result as { modified: string }[];
    // NOW is 2026-03-10 noon: the four example sessions of 2026-03-02, not February's.
    assert.equal(recent.length, 4);
    for (const s of recent) assert.ok(s.modified >= "2026-02-28T12:00:00.000Z", s.modified);
    const bad = await client.callTool({ name: "list_sessions", arguments: { since: "last tuesday" } });
    assert.equal(bad.isError, true);
    assert.match((bad.content as { text: string }[])[0].text, /since: [^]*hint: Pass e\.g\./);
  });

  it("files_touched takes a glob, as files does", async () => {
    const client = await connect({ redact: false, maxChars: 50_000_000 });
    const got = (await call(client, "files_touched", { path: "src/part-{3,1?}.ts" })).result as { refs: { resolved: string }[] }[];
    const paths = new Set(got.flatMap((s) => s.refs.map((r) => r.resolved)));
    assert.deepEqual([...paths].sort(), ["/home/dev/big/src/part-3.ts", ...Array.from({ length: 10 }, (_, i) => `/home/dev/big/src/part-1${i}.ts`)].sort());
  });

  it("@ is the most recent session of the server's directory, as the CLI's @, with or without --all", async () => {
    const info = await cliJson(["info", "@"]);
    for (const all of [true, false]) {
      const client = await connect({ all, redact: false, maxChars: 50_000_000 });
      assert.deepEqual((await call(client, "session_info", { session: "@" })).result, info, `all: ${all}`);
      const shown = (await call(client, "read_session", { session: "@", full: true })).result;
      assert.deepEqual(shown, await cliJson(["show", "--format", "json", "@"]), `all: ${all}`);
    }
    const empty = await connect({ scope: { agentDir: dirs.agentDir, cwd: "/home/dev/nothing-here" } });
    const none = await empty.callTool({ name: "session_info", arguments: { session: "@" } });
    assert.equal(none.isError, true);
    assert.match((none.content as { text: string }[])[0].text, /no session "@": \/home\/dev\/nothing-here has no sessions/);
  });

  it("read_session walks a multi-MB session page by page under the budget, to its last entry", async () => {
    const client = await connect({ maxChars: 20_000 });
    const whole = (await cliJson(["show", "--format", "json", BIG_ID])) as { entries: { id: string }[] };
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await client.callTool({ name: "read_session", arguments: { session: BIG_ID, ...(cursor ? { cursor } : {}) } });
      const text = (result.content as { text: string }[])[0].text;
      assert.ok(text.length <= 20_000, `page ${pages} text is ${text.length} chars`);
      assert.ok(JSON.stringify(result.structuredContent).length <= 20_000, `page ${pages} structured`);
      const { result: value, page } = result.structuredContent as Structured;
      ids.push(...(value as { entries: { id: string }[] }).entries.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    assert.deepEqual(ids, whole.entries.map((e) => e.id));
    assert.ok(pages > 10, `${pages} pages`);
  });

  it("read_session cuts tool outputs and thinking unless full, and says so", async () => {
    const client = await connect({ maxChars: 200_000 });
    const cut = await call(client, "read_session", { session: BIG_ID, limit: 4, toolOutputChars: 100, thinkingChars: 50 });
    const entries = (cut.result as { entries: { message: { content: { type: string; text?: string; thinking?: string }[] } }[] }).entries;
    assert.equal(entries.length, 4);
    assert.match(entries[2].message.content[0].text!, /^\/\/ part 0\n[^]{80,100}…\[cut: \d+ more chars; pass full: true/);
    assert.match(entries[1].message.content[0].thinking!, /^thinking about part 0 [^]*…\[cut: /);
    assert.equal(cut.page.cutStrings, 2);
    assert.match(cut.page.note, /2 long text\(s\) cut/);
    const full = await call(client, "read_session", { session: BIG_ID, limit: 4, full: true });
    assert.equal(full.page.cutStrings, 0);
  });

  it("get_context pages the messages of the big session to the end", async () => {
    const client = await connect({ maxChars: 30_000 });
    const whole = (await cliJson(["context", BIG_ID])) as { messages: unknown[] };
    let count = 0;
    let cursor: string | undefined;
    do {
      const got = await call(client, "get_context", { session: BIG_ID, ...(cursor ? { cursor } : {}) });
      count += (got.result as { messages: unknown[] }).messages.length;
      assert.equal(got.page.total, whole.messages.length);
      cursor = got.page.nextCursor ?? undefined;
    } while (cursor);
    assert.equal(count, whole.messages.length);
  });

  it("masks secrets by default, and not with redact off", async () => {
    const masked = await call(await connect(), "read_session", { session: SECRET_ID });
    assert.equal(JSON.stringify(masked.result).includes(SECRET), false);
    assert.match(JSON.stringify(masked.result), /redacted openai key/);
    assert.equal(masked.page.redacted, 1);
    const plain = await call(await connect({ redact: false }), "read_session", { session: SECRET_ID });
    assert.ok(JSON.stringify(plain.result).includes(SECRET));
  });

  it("bad parameters are JSON-RPC errors naming the parameter", async () => {
    const client = await connect();
    const nextOfBig = (await call(client, "get_context", { session: BIG_ID })).page.nextCursor;
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ["read_session", {}, /read_session: missing required parameter "session"/],
      ["read_session", { session: 3 }, /session must be a string, not integer/],
      ["list_sessions", { sort: "size-ish" }, /sort must be one of modified, created, name, messages, size/],
      ["search_sessions", { query: "x", limit: 0 }, /limit must be at least 1/],
      ["session_info", { session: "x", extra: 1 }, /unknown parameter "extra"/],
      ["read_session", { session: BIG_ID, cursor: "nonsense" }, /is not a cursor of read_session/],
      ["get_context", { session: SECRET_ID, cursor: nextOfBig }, /belongs to a get_context call with other arguments/],
      ["no_such_tool", {}, /Unknown tool "no_such_tool"/],
    ];
    for (const [name, args, message] of bad) {
      await assert.rejects(client.callTool({ name, arguments: args }), (error: Error & { code?: number }) => {
        assert.equal(error.code, -32602, error.message);
        assert.match(error.message, message);
        return true;
      });
    }
  });

  it("unknown sessions and entries are tool errors that say so; the server goes on", async () => {
    const client = await connect();
    const unknown = await client.callTool({ name: "session_info", arguments: { session: "ffffffff" } });
    assert.equal(unknown.isError, true);
    assert.match((unknown.content as { text: string }[])[0].text, /no session "ffffffff" in any project/);
    const entry = await client.callTool({ name: "get_context", arguments: { session: BIG_ID, entry: "label:nope" } });
    assert.equal(entry.isError, true);
    assert.match((entry.content as { text: string }[])[0].text, /nope/);
    assert.equal((await call(client, "session_info", { session: BIG_ID })).page.nextCursor, null);
  });

  it("the command's warnings (skipped broken lines) are in the page note", async () => {
    const got = await call(await connect(), "read_session", { session: BROKEN_ID });
    assert.match(got.page.note, /^entries 1–1 of 1; warning: skipped 1 broken line of \S+ \(line 2\)/);
  });

  it("without --all, only the project's sessions are seen", async () => {
    const client = await connect({ all: false });
    const listed = (await call(client, "list_sessions", {})).result as { id: string }[];
    assert.deepEqual(listed.map((s) => s.id).sort(), [BIG_ID, SECRET_ID].sort());
    const other = await client.callTool({ name: "session_info", arguments: { session: "019c4a8d" } });
    assert.equal(other.isError, true);
    assert.match((other.content as { text: string }[])[0].text, /no session "019c4a8d" among the sessions of \/home\/dev\/big[^]*--all/);
    const project = await client.callTool({ name: "list_sessions", arguments: { project: "/home/dev/webshop" } });
    assert.equal(project.isError, true);
    assert.match((project.content as { text: string }[])[0].text, /outside this server's scope/);
  });

  it("the session resource template gives the transcript as Markdown", async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.equal(resourceTemplates[0].uriTemplate, "pi-session://session/{id}");
    const read = await client.readResource({ uri: `pi-session://session/${SECRET_ID}` });
    const text = (read.contents[0] as { text: string }).text;
    assert.match(text, /^# Session 019d0000/);
    assert.equal(text.includes(SECRET), false);
    const big = await client.readResource({ uri: `pi-session://session/${BIG_ID}` });
    assert.ok((big.contents[0] as { text: string }).text.length <= 16_000);
    await assert.rejects(client.readResource({ uri: "pi-session://session/ffffffff" }), /no session "ffffffff"/);
  });
});
