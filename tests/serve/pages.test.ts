/**
 * The web app's pages as the server sends them: each stable URL renders its content on first
 * load (no empty shell), under a CSP whose hashes are those of the one script and stylesheet,
 * with hostile session content escaped; and the page script bundle is not older than its sources.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serveClientSourceHash } from "../../scripts/serve-client-source-hash.ts";
import { CLIENT_JS, CLIENT_SOURCE_HASH, MARKDOWN_JS } from "../../src/serve/web/client-bundle.ts";
import { html, raw } from "../../src/serve/web/html.ts";
import { addSession, userEntry } from "../cli/_harness.ts";
import { fixtureText, SECRET, SESSION_ID } from "../export/_fixture.ts";
import { type TestServer, testServer } from "./_server.ts";

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/** Tags in the page that could run something: every <script> but ours and the JSON data block. */
function activeMarkup(whole: string): string[] {
  const page = whole.replace(`<script>${CLIENT_JS}</script>`, "").replace(`<script>${MARKDOWN_JS}</script>`, "");
  const found: string[] = [];
  for (const m of page.matchAll(/<script([^>]*)>/gi)) if (m[1] !== "" && m[1] !== ' type="application/json" id="page-data"') found.push(m[0]);
  for (const m of page.matchAll(/<[a-z][^>]*\son\w+\s*=/gi)) found.push(m[0]);
  for (const m of page.matchAll(/<(iframe|object|embed|img|svg|math|base|meta http-equiv)\b[^>]*>/gi)) if (!/^<meta http-equiv="?Content-Security/i.test(m[0])) found.push(m[0]);
  return found;
}

describe("serve pages", () => {
  let server: TestServer;
  before(async () => {
    server = await testServer();
    await addSession(server.fs, SESSION_ID, [], { cwd: "/home/u/proj", text: fixtureText() });
    await addSession(server.fs, "0e1f2031-0000-4000-8000-000000000001", [userEntry("u1", null, "parse the config")], { cwd: "/home/u/other" });
  });
  after(() => server.close());

  it("html`` escapes every value, and only raw() markup goes in as it is", () => {
    assert.equal(html`<p title="${'"><script>'}">${"<b>&"}${raw("<i>ok</i>")}${["<", ">"]}${null}${false}</p>`.html, '<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;&amp;<i>ok</i>&lt;&gt;</p>');
  });

  it("the page script bundle was rebuilt from the current sources", () => {
    assert.equal(CLIENT_SOURCE_HASH, serveClientSourceHash(), "run `npx tsx scripts/build-serve-client.ts`");
  });

  const pages: [string, RegExp[]][] = [
    ["/", [/Sessions/, /Export test/, /parse the config/, new RegExp(`href="/sessions/${SESSION_ID}"`)]],
    ["/?q=config", [/parse the config/]],
    ["/?model=claude-test&since=1970-01-01&until=2030-12-31", [/Export test/, /name="model"[^>]*value="claude-test"/, /name="since" value="1970-01-01"/, /name="until" value="2030-12-31"/]],
    [`/sessions/${SESSION_ID}?leaf=a0000001`, [/<details class="thinking">/, /Let me look at the file first\./, /data-toggle="thinking"/, /data-toggle="output"/]],
    [`/sessions/${SESSION_ID}`, [/id="entry-a0000005"/, /Done\./, /class="tree"/, /Thanks/]],
    [`/sessions/${SESSION_ID}?leaf=a0000004`, [/Side answer/, /Try another way/]],
    [`/sessions/${SESSION_ID}?filter=user-only`, [/class="tree"/, /data-id="u0000002"/, /aria-current="true">user-only</]],
    [`/sessions/${SESSION_ID}/context?leaf=u0000002`, [/Model context/, /Try another way/, /thinking/]],
    ["/stats", [/Stats/, /id="chart-cost"/, /Top sessions/]],
    ["/files?path=/home/u/proj/src/a.ts", [/src\/a\.ts/, new RegExp(`/sessions/${SESSION_ID}#entry-`)]],
  ];
  for (const [path, expected] of pages) {
    it(`GET ${path} renders its content on first load, under a CSP that admits only our hashed script and style`, async () => {
      const response = await server.fetch(path);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("Content-Type") ?? "", /^text\/html/);
      const page = await response.text();
      for (const pattern of expected) assert.match(page, pattern, `${path} shows ${pattern}`);
      const csp = response.headers.get("Content-Security-Policy") ?? "";
      const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      // Pages that show messages also run the viewer's markdown, and admit just that one more.
      const ours = path.startsWith("/sessions/") ? [CLIENT_JS, MARKDOWN_JS] : [CLIENT_JS];
      assert.deepEqual(scripts, ours);
      assert.match(csp, new RegExp(`script-src ${(await Promise.all(ours.map(sha256))).map((h) => `'sha256-${h.replace(/[+/]/g, "\\$&")}'`).join(" ")};`));
      const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
      assert.equal(styles.length, 1);
      assert.ok(csp.includes(`style-src 'sha256-${await sha256(styles[0])}'`));
      assert.doesNotMatch(page, / style="/, "no inline style attributes (the CSP would block them)");
      assert.deepEqual(activeMarkup(page), [], "hostile content is escaped");
      assert.ok(!page.includes(SECRET), "secrets are masked");
    });
  }

  it("the sessions page's model and date range leave out what they do not match, on first load", async () => {
    const page = async (path: string) => (await server.fetch(path)).text();
    const other = 'href="/sessions/0e1f2031-0000-4000-8000-000000000001"';
    assert.ok(!(await page("/?model=claude")).includes(other), "the other session has no reply");
    assert.ok((await page("/?model=claude")).includes(`href="/sessions/${SESSION_ID}"`));
    assert.match(await page("/?model=nobody"), /No sessions\./);
    assert.match(await page("/?until=1969-12-31"), /No sessions\./);
    assert.match(await page("/?since=2031-01-01"), /No sessions\./);
    assert.equal((await server.fetch("/?until=soon")).status, 400);
  });

  it("a session page from an entry down its branch starts there, with a link to the entries before", async () => {
    const page = await (await server.fetch(`/sessions/${SESSION_ID}?from=a0000003`)).text();
    assert.match(page, /id="entry-a0000003"/);
    assert.doesNotMatch(page, /id="entry-u0000001"/);
    assert.match(page, /<p class="notes" id="earlier"><a href="[^"]*from=m0000001">6 earlier entries<\/a>/);
    assert.match(page, /"start":6/);
  });

  it("a page asked after the API asked the same question still renders (cached answers kept apart)", async () => {
    const fresh = await testServer();
    try {
      await addSession(fresh.fs, SESSION_ID, [], { cwd: "/home/u/proj", text: fixtureText() });
      for (const path of [`/api/sessions/${SESSION_ID}/tree`, "/api/sessions?limit=50", "/api/sessions"]) assert.equal((await fresh.fetch(path)).status, 200);
      for (const path of [`/sessions/${SESSION_ID}`, "/"]) assert.equal((await fresh.fetch(path)).status, 200, path);
    } finally {
      await fresh.close();
    }
  });

  it("a session page's data block holds no `<` that could end its script", async () => {
    const page = await (await server.fetch(`/sessions/${SESSION_ID}`)).text();
    const data = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(page)![1];
    assert.doesNotMatch(data, /</);
    assert.equal(JSON.parse(data).sessionId, SESSION_ID);
  });

  it("GET /sessions/<id>/session.jsonl downloads every entry, secrets masked", async () => {
    const response = await server.fetch(`/sessions/${SESSION_ID}/session.jsonl`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("Content-Disposition") ?? "", /attachment; filename="exp-0001\.jsonl"/);
    const text = await response.text();
    const lines = text.trim().split("\n").map((line) => JSON.parse(line));
    const stored = fixtureText().trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(lines[0].type, "session");
    assert.deepEqual(lines.slice(1).map((e) => e.id), stored.slice(1).map((e) => e.id));
    assert.ok(!text.includes(SECRET));
    assert.equal((await server.fetch("/sessions/..%2F..%2Fetc/session.jsonl")).status, 404);
  });

  it("unknown sessions and entries get a page saying so, with 404", async () => {
    for (const path of ["/sessions/nothing-here", `/sessions/${SESSION_ID}?leaf=zzzz9999`, "/sessions/..%2Fetc"]) {
      const response = await server.fetch(path);
      assert.equal(response.status, 404, path);
      assert.match(await response.text(), /not found|No session/i);
    }
  });
});
