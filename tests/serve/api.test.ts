/**
 * The JSON API through the app's `fetch` (no socket), on Node, Deno and Bun: every route's body
 * equals what the matching CLI command prints with `--json` over the same files (redaction
 * changing only the secret spans), paging, every error path, and the OpenAPI document: valid
 * and describing what the routes answer.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Redactor } from "../../src/core/redact/redactor.ts";
import { validate, type Schema } from "../_json-schema.ts";
import { addSession, assistantEntry, jsonl, header, runCli, userEntry } from "../cli/_harness.ts";
import { fixtureText, SECRET, SESSION_ID } from "../export/_fixture.ts";
import { sessionEntries } from "../../src/query/entries.ts";
import { type TestServer, testServer } from "./_server.ts";

const PROJECT = "/home/u/proj";

/** A few sessions in two projects, one of them the export fixture (branches, labels, a secret). */
async function seeded(redact: boolean): Promise<TestServer> {
  const server = await testServer({ redact });
  const fs = server.fs;
  await addSession(fs, SESSION_ID, [], { cwd: PROJECT, text: fixtureText() });
  await addSession(fs, "0a1b2c3d-0000-4000-8000-000000000001", [userEntry("u1", null, "parse the config"), assistantEntry("a1", "u1", "Done parsing")], { cwd: "/home/u/other" });
  await addSession(fs, "0a1b2c3d-0000-4000-8000-000000000002", [userEntry("u1", null, "write the parser tests")], { cwd: "/home/u/other" });
  return server;
}

async function cli(server: TestServer, argv: string[]): Promise<unknown> {
  const run = await runCli([...argv, "--json"], { fs: server.fs });
  assert.ok(run.code <= 1, `${argv.join(" ")}: exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe("serve API = the CLI's --json", () => {
  let plain: TestServer;
  let masked: TestServer;
  before(async () => {
    plain = await seeded(false);
    masked = await seeded(true);
  });
  after(async () => {
    await plain.close();
    await masked.close();
  });

  const pairs: [string, string[]][] = [
    ["/api/sessions", ["list", "--all"]],
    ["/api/sessions?sort=messages", ["list", "--all", "--sort", "messages"]],
    ["/api/sessions?named=1", ["list", "--all", "--named"]],
    ["/api/sessions?q=parser", ["list", "--all", "--search", "parser"]],
    [`/api/sessions?cwd=${encodeURIComponent("/home/u/other")}`, ["list", "--cwd", "/home/u/other"]],
    [`/api/sessions/${SESSION_ID}`, ["info", SESSION_ID]],
    [`/api/sessions/${SESSION_ID}/tree`, ["tree", SESSION_ID]],
    [`/api/sessions/${SESSION_ID}/tree?filter=all`, ["tree", SESSION_ID, "--filter", "all"]],
    [`/api/sessions/${SESSION_ID}/context`, ["context", SESSION_ID]],
    [`/api/sessions/${SESSION_ID}/context?leaf=u0000002&format=llm`, ["context", SESSION_ID, "--leaf", "u0000002", "--format", "llm"]],
    ["/api/search?q=parser", ["search", "parser", "--all"]],
    ["/api/stats", ["stats", "--all"]],
    ["/api/stats?by=model&breakdown=0", ["stats", "--all", "--by", "model"]],
    ["/api/stats?by=project&breakdown=1", ["stats", "--all", "--by", "project", "--breakdown"]],
    ["/api/files?path=/home/u/proj/src/a.ts", ["files", "/home/u/proj/src/a.ts", "--all"]],
  ];

  for (const [path, argv] of pairs) {
    it(`GET ${path} equals \`pi-session ${argv.join(" ")} --json\`; redacted, only the secrets differ`, async () => {
      const expected = await cli(plain, argv);
      assert.deepEqual(await plain.json(path), expected);
      const redacted = await masked.json(path);
      assert.deepEqual(redacted, new Redactor().value(expected));
      assert.ok(!JSON.stringify(redacted).includes(SECRET), "no secret served when redacting");
    });
  }

  it("GET /api/sessions?since= keeps what the list query keeps (no CLI flag: the query is the contract)", async () => {
    const { listSessions } = await import("../../src/query/list.ts");
    for (const since of ["2025-06-01", "2030-01-01"]) {
      const { value } = await listSessions(plain.state.env(), { all: true, since, tz: "UTC" });
      assert.deepEqual(await plain.json(`/api/sessions?since=${since}&tz=UTC`), value);
    }
    assert.deepEqual(await plain.json("/api/sessions?since=2030-01-01&tz=UTC"), []);
    assert.equal((await plain.fetch("/api/sessions?since=yesterday-ish")).status, 400);
  });

  it("GET /api/sessions pages with limit and the X-Next-Cursor cursor, in the CLI's order", async () => {
    const all = await cli(plain, ["list", "--all"]) as { id: string }[];
    const seen: string[] = [];
    let path = "/api/sessions?limit=2";
    for (;;) {
      const response = await plain.fetch(path);
      assert.equal(response.status, 200);
      seen.push(...(await response.json() as { id: string }[]).map((s) => s.id));
      const next = response.headers.get("X-Next-Cursor");
      if (next === null) break;
      assert.match(response.headers.get("Link") ?? "", /rel="next"/);
      path = `/api/sessions?limit=2&cursor=${encodeURIComponent(next)}`;
    }
    assert.deepEqual(seen, all.map((s) => s.id));
  });

  it("GET /entries pages the whole file in order with limit and after= (X-Next-Cursor), each page the entries query's value", async () => {
    const ids = fixtureText().trim().split("\n").slice(1).map((line) => JSON.parse(line).id as string);
    const seen: string[] = [];
    let path = `/api/sessions/${SESSION_ID}/entries?limit=4`;
    for (;;) {
      const response = await plain.fetch(path);
      assert.equal(response.status, 200);
      const page = await response.json() as { schemaVersion: number; id: string; entries: { id: string }[]; nextAfter: string | null; entryCount: number };
      const after = new URL(path, "http://x").searchParams.get("after") ?? undefined;
      const { value } = await sessionEntries(plain.state.env(), { ref: SESSION_ID, after, limit: 4 });
      assert.deepEqual(page, { schemaVersion: 1, ...value });
      assert.equal(page.entryCount, ids.length);
      seen.push(...page.entries.map((e) => e.id));
      const next = response.headers.get("X-Next-Cursor");
      assert.equal(next, page.nextAfter);
      if (next === null) break;
      path = `/api/sessions/${SESSION_ID}/entries?limit=4&after=${encodeURIComponent(next)}`;
    }
    assert.deepEqual(seen, ids);
  });
});

describe("serve API errors", () => {
  let server: TestServer;
  before(async () => {
    server = await seeded(true);
    await addSession(server.fs, "broken-0001", [], { cwd: PROJECT, text: "this is not json\n" });
  });
  after(() => server.close());

  const cases: [string, number, string][] = [
    ["/api/sessions/zzzz-nothing", 404, "no-session"],
    [`/api/sessions/${SESSION_ID}/context?leaf=nope0000`, 404, ""],
    [`/api/sessions/${SESSION_ID}/entries?after=nope0000`, 0, ""],
    ["/api/sessions/0a1b2c3d", 400, ""],
    ["/api/sessions?limit=0", 400, ""],
    ["/api/sessions?limit=abc", 400, "bad-option"],
    ["/api/sessions?sort=sideways", 400, "bad-option"],
    ["/api/sessions?cursor=%%%", 400, ""],
    [`/api/sessions/${SESSION_ID}/tree?filter=odd`, 400, "bad-option"],
    [`/api/sessions/${SESSION_ID}/entries?limit=5000`, 400, "bad-option"],
    [`/api/sessions/${SESSION_ID}/context?format=text`, 400, "bad-option"],
    ["/api/search", 400, "missing-parameter"],
    ["/api/search?q=%20", 400, "missing-parameter"],
    ["/api/stats?by=decade", 400, "bad-option"],
    ["/api/files", 400, "missing-parameter"],
    // Not a session (no header): never listed, so nothing by that id.
    ["/api/sessions/broken-0001", 404, ""],
    ["/api/nothing-here", 404, "no-such-route"],
  ];
  for (const [path, status, code] of cases) {
    it(`GET ${path} answers ${status || "4xx"} with {error: {code, message, hint}}`, async () => {
      const response = await server.fetch(path);
      if (status) assert.equal(response.status, status, await response.clone().text());
      else assert.ok(response.status >= 400 && response.status < 500, String(response.status));
      assert.match(response.headers.get("Content-Type") ?? "", /application\/json/);
      const body = await response.json() as { error: Record<string, unknown> };
      assert.deepEqual(Object.keys(body), ["error"]);
      assert.deepEqual(Object.keys(body.error).sort(), ["code", "hint", "message"]);
      for (const value of Object.values(body.error)) assert.equal(typeof value, "string");
      if (code) assert.equal(body.error.code, code);
    });
  }

  it("an ambiguous prefix is a 400 that says it matches more than one, as the CLI's exit 2", async () => {
    const body = await server.json("/api/sessions/0a1b2c3d", 400) as { error: { message: string } };
    assert.match(body.error.message, /matches 2 sessions/);
  });
});

describe("serve OpenAPI document", () => {
  let server: TestServer;
  let doc: Record<string, any>;
  before(async () => {
    server = await seeded(true);
    doc = await server.json("/api/openapi.json") as Record<string, any>;
  });
  after(() => server.close());

  /** Every `$ref` of the document, with where it is. */
  function refs(value: unknown, at = "$", out: [string, string][] = []): [string, string][] {
    if (Array.isArray(value)) value.forEach((v, i) => refs(v, `${at}[${i}]`, out));
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (k === "$ref" && typeof v === "string") out.push([at, v]);
        else refs(v, `${at}.${k}`, out);
      }
    }
    return out;
  }

  it("is OpenAPI 3.1 with info, paths of GET operations with 200 responses, and every $ref resolving", () => {
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(typeof doc.info.title, "string");
    assert.equal(typeof doc.info.version, "string");
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      assert.match(path, /^\/api\//);
      assert.deepEqual(Object.keys(item), ["get"], path);
      assert.ok(item.get.responses["200"], path);
      for (const p of item.get.parameters ?? []) {
        assert.ok(["query", "path"].includes(p.in), `${path}: ${p.name}`);
        if (p.in === "path") assert.equal(p.required, true);
        if (p.in === "path") assert.ok(path.includes(`{${p.name}}`), `${path} has {${p.name}}`);
      }
    }
    for (const [at, ref] of refs(doc)) {
      if (ref.startsWith("#/components/")) {
        const target = ref.slice(2).split("/").reduce((o: any, k) => o?.[k], doc);
        assert.ok(target, `${at}: ${ref} resolves`);
      } else {
        // Inside a component schema: "#/$defs/x" resolves against that schema's $id.
        const component = Object.values<Record<string, any>>(doc.components.schemas).find((s) => at.includes(`.schemas.${s.$id?.split("/").pop()?.replace(".schema.json", "")}`));
        assert.match(ref, /^#\/\$defs\/[\w-]+$/, at);
        assert.ok(component?.$defs?.[ref.slice(8)], `${at}: ${ref} resolves in its component`);
      }
    }
  });

  it("describes each route's answers: bodies validate against the response schemas it names", async () => {
    /** The response schema; with `oneOf`, the one named `pick`. */
    const schemaOf = (path: string, status: string, pick?: string): Schema => {
      const content = doc.paths[path].get.responses[status].content["application/json"].schema;
      const refs: string[] = content.$ref ? [content.$ref] : content.oneOf.map((o: { $ref: string }) => o.$ref);
      const name = refs.map((r) => r.split("/").pop()!).find((n) => pick === undefined || n === pick);
      assert.ok(name, `${path} ${status} names ${pick}`);
      return doc.components.schemas[name];
    };
    const checks: [string, string, string?, string?][] = [
      ["/api/sessions", "/api/sessions"],
      [`/api/sessions/${SESSION_ID}`, "/api/sessions/{ref}"],
      [`/api/sessions/${SESSION_ID}/tree`, "/api/sessions/{ref}/tree"],
      [`/api/sessions/${SESSION_ID}/entries?limit=3`, "/api/sessions/{ref}/entries"],
      [`/api/sessions/${SESSION_ID}/context?format=llm`, "/api/sessions/{ref}/context", "200", "context-llm"],
      [`/api/sessions/${SESSION_ID}/context`, "/api/sessions/{ref}/context", "200", "context"],
      ["/api/search?q=parser", "/api/search"],
      ["/api/stats?by=project&breakdown=1", "/api/stats"],
      ["/api/files?path=/home/u/proj/src/a.ts", "/api/files"],
      ["/api/sessions/nothing-0", "/api/sessions/{ref}", "404"],
      ["/api/stats?by=decade", "/api/stats", "400"],
    ];
    for (const [url, path, status = "200", pick] of checks) {
      const response = await server.fetch(url);
      assert.equal(String(response.status), status, url);
      const problems = validate(schemaOf(path, status, pick), await response.json());
      assert.deepEqual(problems, [], url);
    }
  });
});
