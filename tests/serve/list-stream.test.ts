/**
 * `/api/sessions` and `/metrics` over a SQLite catalog, where the listing is planned from a walk
 * of the catalog and a long one is streamed a slice at a time: the same bytes as the listing
 * built whole (the file catalog's server), for every sort, filter and page, and the same
 * session counts in `/metrics`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Catalog } from "../../src/catalog/catalog.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { addSession, assistantEntry, memoryFs, runCli, userEntry } from "../cli/_harness.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { type TestServer, testServer } from "./_server.ts";

const binding = await sqliteBinding();
const noSqlite = "skip" in binding ? binding.skip : false;

const id = (n: number) => `0a1b2c3d-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** Nine sessions in three projects: some named, some alike in every sorted field (ties). */
async function seed(fs: ReturnType<typeof memoryFs>): Promise<void> {
  for (let n = 1; n <= 9; n++) {
    const entries: object[] = [userEntry("u1", null, n % 3 === 0 ? "write the parser" : `task ${n}`)];
    if (n % 2 === 0) entries.push(assistantEntry("a1", "u1", "done"));
    if (n % 4 === 0) entries.push({ type: "session_info", id: "i1", parentId: "a1", timestamp: "2025-06-01T10:05:00.000Z", name: `named ${n}` });
    await addSession(fs, id(n), entries, { cwd: `/home/u/p${n % 3}` });
  }
}

describe("serve: a listing planned from the catalog and streamed", { skip: noSqlite }, () => {
  let work: string;
  let streamed: TestServer;
  let whole: TestServer;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), "list-stream-"));
    const fs = memoryFs();
    await seed(fs);
    const store = await openSqliteStore(join(work, "catalog.sqlite"));
    // Anything over two sessions is streamed, in slices of two.
    streamed = await testServer({ fs, catalog: new Catalog(fs, { store }), redact: true, listStream: { from: 2, slice: 2 } });
    whole = await testServer({ fs, redact: true });
  });
  after(async () => {
    await streamed.close();
    await whole.close();
    rmSync(work, { recursive: true, force: true });
  });

  const queries = [
    "/api/sessions",
    "/api/sessions?sort=messages",
    "/api/sessions?sort=name",
    "/api/sessions?sort=created",
    "/api/sessions?sort=size",
    "/api/sessions?named=1",
    "/api/sessions?q=parser",
    "/api/sessions?q=nothing-matches-this",
    `/api/sessions?cwd=${encodeURIComponent("/home/u/p1")}`,
    "/api/sessions?limit=4",
  ];
  for (const path of queries) {
    it(`GET ${path} answers the bytes and headers of the listing built whole`, async () => {
      for (let round = 0; round < 2; round++) {
        // The second round answers from the kept plan.
        const [a, b] = [await streamed.fetch(path), await whole.fetch(path)];
        assert.equal(a.status, 200);
        assert.equal(await a.text(), await b.text());
        assert.equal(a.headers.get("X-Next-Cursor"), b.headers.get("X-Next-Cursor"));
      }
    });
  }

  it("pages by cursor through every session, as `list --all --json` lists them", async () => {
    const expected = JSON.parse((await runCli(["list", "--all", "--json"], { fs: streamed.fs })).stdout) as { id: string }[];
    const seen: string[] = [];
    for (let path: string | null = "/api/sessions?limit=3"; path !== null;) {
      const response = await streamed.fetch(path);
      seen.push(...((await response.json()) as { id: string }[]).map((s) => s.id));
      const next = response.headers.get("X-Next-Cursor");
      path = next === null ? null : `/api/sessions?limit=3&cursor=${encodeURIComponent(next)}`;
    }
    assert.deepEqual(seen, expected.map((s) => s.id));
  });

  it("GET /metrics counts the sessions and messages of each project as the listing built whole does", async () => {
    const counts = async (server: TestServer) => (await (await server.fetch("/metrics")).text()).split("\n").filter((line) => /^pi_session_(sessions|messages)\{/.test(line));
    const lines = await counts(streamed);
    assert.equal(lines.length, 6);
    assert.deepEqual(lines, await counts(whole));
  });
});

describe("serve: a listing and its counts read from the catalog's listing rows", { skip: noSqlite }, () => {
  let work: string;
  let server: TestServer;
  /** Paths whose listing records were loaded since the last reset. */
  let loaded: string[] = [];
  before(async () => {
    work = mkdtempSync(join(tmpdir(), "list-rows-"));
    const fs = memoryFs();
    await seed(fs);
    const store = await openSqliteStore(join(work, "catalog.sqlite"));
    const loadPaths = store.loadPaths.bind(store);
    store.loadPaths = (section, paths) => {
      if (section.name === "listing") loaded.push(...paths);
      return loadPaths(section, paths);
    };
    server = await testServer({ fs, catalog: new Catalog(fs, { store }), redact: true, listStream: { from: 2, slice: 2 } });
    // The catalog made current by a first listing.
    assert.equal((await server.fetch("/api/sessions?limit=1")).status, 200);
  });
  after(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("plans a page of a current catalog without loading a record but those of the page", async () => {
    loaded = [];
    const response = await server.fetch("/api/sessions?limit=3");
    const page = (await response.json()) as { path: string }[];
    assert.equal(page.length, 3);
    assert.deepEqual([...new Set(loaded)].sort(), page.map((s) => s.path).sort());
  });

  it("counts /metrics' sessions per project of a current catalog without loading a listing record", async () => {
    loaded = [];
    const text = await (await server.fetch("/metrics")).text();
    assert.match(text, /^pi_session_sessions\{project="\/home\/u\/p0"\} 3$/m);
    assert.deepEqual(loaded, []);
  });
});
