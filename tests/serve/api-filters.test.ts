/**
 * The sessions page's filters through the API: model, since and until on `/api/sessions` and a
 * search inside one session on `/api/search`, each answering what `list --json` and
 * `search --json` print with the same flags.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { addSession, assistantEntry, runCli, userEntry } from "../cli/_harness.ts";
import { type TestServer, testServer } from "./_server.ts";

const FIRST = "0a1b2c3d-0000-4000-8000-000000000001";
const SECOND = "5e6f7a8b-0000-4000-8000-000000000002";

/** A user message at `at` with `text` (the message's time too: what the listing's dates come from). */
function said(id: string, at: string, text: string): Record<string, unknown> {
  const entry = userEntry(id, null, text) as { message: Record<string, unknown> };
  return { ...entry, timestamp: at, message: { ...entry.message, timestamp: Date.parse(at) } };
}

/** A reply from `provider/model` at `at`. */
function reply(id: string, parentId: string, at: string, provider: string, model: string, text: string): Record<string, unknown> {
  const entry = assistantEntry(id, parentId, text) as { message: Record<string, unknown> };
  return { ...entry, timestamp: at, message: { ...entry.message, provider, model, timestamp: Date.parse(at) } };
}

describe("serve API filters = the CLI's --json", () => {
  let server: TestServer;
  before(async () => {
    server = await testServer({ redact: false });
    await addSession(server.fs, FIRST, [said("u1", "2025-05-10T09:00:00.000Z", "parse the config"), reply("a1", "u1", "2025-05-10T09:01:00.000Z", "anthropic", "claude-sonnet-4", "parsed the config")], { cwd: "/home/u/a" });
    await addSession(server.fs, SECOND, [said("u1", "2025-06-20T09:00:00.000Z", "write the parser tests"), reply("a1", "u1", "2025-06-20T09:01:00.000Z", "openai", "gpt-5", "wrote parser tests")], { cwd: "/home/u/b" });
  });
  after(() => server.close());

  const pairs: [string, string[]][] = [
    ["/api/sessions?model=claude", ["list", "--all", "--model", "claude"]],
    ["/api/sessions?model=GPT", ["list", "--all", "--model", "GPT"]],
    ["/api/sessions?model=llama", ["list", "--all", "--model", "llama"]],
    ["/api/sessions?since=2025-06&tz=UTC", ["list", "--all", "--since", "2025-06", "--tz", "UTC"]],
    ["/api/sessions?until=2025-05-31&tz=UTC", ["list", "--all", "--until", "2025-05-31", "--tz", "UTC"]],
    ["/api/sessions?since=2025-05-01&until=2025-06-30&model=sonnet&tz=UTC", ["list", "--all", "--since", "2025-05-01", "--until", "2025-06-30", "--model", "sonnet", "--tz", "UTC"]],
    [`/api/search?q=parser&session=${SECOND.slice(0, 12)}`, ["search", "parser", "--session", SECOND.slice(0, 12)]],
    [`/api/search?q=config&session=${FIRST}`, ["search", "config", "--session", FIRST]],
    [`/api/search?q=config&session=${SECOND}`, ["search", "config", "--session", SECOND]],
  ];
  for (const [path, argv] of pairs) {
    it(`GET ${path} equals \`pi-session ${argv.join(" ")} --json\``, async () => {
      const run = await runCli([...argv, "--json"], { fs: server.fs });
      assert.ok(run.code <= 1, `${argv.join(" ")}: exit ${run.code}: ${run.stderr}`);
      assert.deepEqual(await server.json(path), JSON.parse(run.stdout));
    });
  }

  it("narrows as the page's filters ask: by model, by date range, inside one session", async () => {
    const ids = async (path: string) => ((await server.json(path)) as { id: string }[]).map((s) => s.id);
    assert.deepEqual(await ids("/api/sessions?model=sonnet"), [FIRST]);
    assert.deepEqual(await ids("/api/sessions?since=2025-06-01&tz=UTC"), [SECOND]);
    assert.deepEqual(await ids("/api/sessions?until=2025-06-01&tz=UTC"), [FIRST]);
    const hits = (await server.json(`/api/search?q=parser&session=${SECOND}`)) as { sessionId: string; entryId: string }[];
    assert.deepEqual([...new Set(hits.map((h) => h.sessionId))], [SECOND]);
    assert.ok(hits.some((h) => h.entryId === "a1"));
  });

  it("answers a bad until with 400 and an unknown or unsafe session with 404, as the CLI exits 2", async () => {
    const bad = (await server.json("/api/sessions?until=soon", 400)) as { error: { code: string; message: string } };
    assert.match(bad.error.message, /^--until: /);
    assert.equal(((await server.json("/api/search?q=x&session=ffffffff", 404)) as { error: { code: string } }).error.code, "no-session");
    assert.equal(((await server.json("/api/search?q=x&session=..%2F..%2Fetc", 404)) as { error: { code: string } }).error.code, "no-session");
    assert.equal((await runCli(["search", "x", "--session", "ffffffff"], { fs: server.fs })).code, 2);
  });
});
