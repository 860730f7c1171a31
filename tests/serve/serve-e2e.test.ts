/**
 * `pi-session serve` for real: the command on Node, Deno and Bun and in the compiled binary
 * (listening, answering the API as the CLI prints it, ending on SIGTERM with its event streams
 * closed), then Debian's Chromium (playwright-core) against the binary: list → search → open a
 * session → click another branch → the context of an entry → stats charts drawn → a line
 * appended to the session file appears live (a burst over a page's 1 MB too); the search and filters of a session's sidebar and of
 * the sessions page (model, from/until); messages rendered as markdown; hostile content never runs;
 * 420 px and dark mode.
 * Screenshots go to .cache/test-output/ (on failure too). Node only: it drives the others.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { compileArgs } from "../../scripts/compile.ts";
import { Redactor } from "../../src/core/redact/redactor.ts";
import { fixtureText, SESSION_ID } from "../export/_fixture.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const OUTPUT = join(root, ".cache/test-output");
const CHROMIUM = "/usr/bin/chromium";
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const bin = (name: string) => join(root, "node_modules", ".bin", name);

type Browser = import("playwright-core").Browser;
type Page = import("playwright-core").Page;

interface Server {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** Starts `serve --port 0` and resolves once it printed its URL. */
function startServer(command: string, args: string[], env: Record<string, string>): Promise<Server> {
  const child = spawn(command, [...args, "serve", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.stderr!.on("data", (d) => (stderr += String(d)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      stdout += String(d);
      const url = /^(http:\/\/\S+)\n/m.exec(stdout)?.[1];
      if (url) resolve({ url, child, exited, stderr: () => stderr });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
}

function exec(command: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("serve end to end", { skip: isNode ? false : "runs under Node; it drives Node, Deno, Bun, the binary and Chromium" }, () => {
  let work = "";
  let binary = "";
  let env: Record<string, string> = {};
  const agentArgs = () => ["--agent-dir", join(work, "agent")];

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-serve-e2e-"));
    cpSync(join(root, "examples/agent"), join(work, "agent"), { recursive: true });
    const project = join(work, "agent/sessions/--home-u-proj--");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, `2025-06-01T10-00-00-000Z_${SESSION_ID}.jsonl`), fixtureText());
    binary = join(work, "pi-session");
    const built = await exec(bin("bun"), compileArgs(binary), { PATH: process.env.PATH ?? "", HOME: work });
    assert.equal(built.code, 0, built.stderr);
    env = { PATH: process.env.PATH ?? "", HOME: join(work, "home"), TZ: "UTC", NO_COLOR: "1" };
  });
  after(() => work && rmSync(work, { recursive: true, force: true }));

  const runtimes: [string, () => [string, string[]]][] = [
    ["node", () => [process.execPath, ["--import", "tsx", join(root, "src/cli/main.ts")]]],
    ["deno", () => [bin("deno"), ["run", "-A", "--quiet", join(root, "src/cli/main.ts")]]],
    ["bun", () => [bin("bun"), [join(root, "src/cli/main.ts")]]],
    ["binary", () => [binary, []]],
  ];

  for (const [name, command] of runtimes) {
    it(`${name}: serves the API as the CLI prints it, and stops on SIGTERM with its event stream closed`, async () => {
      const [cmd, pre] = command();
      const server = await startServer(cmd, [...pre, ...agentArgs()], env);
      try {
        assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
        assert.equal(await (await fetch(server.url + "healthz")).text(), "ok\n");
        const listed = await (await fetch(server.url + "api/sessions")).json();
        const cli = await exec(cmd, [...pre, ...agentArgs(), "list", "--all", "--json"], env);
        // Served with secrets masked (the default): the CLI's value, masked.
        assert.deepEqual(listed, new Redactor().value(JSON.parse(cli.stdout)));
        const events = await fetch(server.url + "api/events");
        const reader = events.body!.getReader();
        let text = "";
        while (!text.includes("event: ready")) text += new TextDecoder().decode((await reader.read()).value);
        server.child.kill("SIGTERM");
        for (;;) {
          const { done } = await reader.read();
          if (done) break;
        }
        assert.equal(await server.exited, 0, server.stderr());
      } finally {
        server.child.kill("SIGKILL");
      }
    });
  }

  describe("in Chromium against the binary", { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install chromium)` }, () => {
    let browser: Browser;
    let server: Server;
    const sessionFile = () => join(work, "agent/sessions/--home-u-proj--", `2025-06-01T10-00-00-000Z_${SESSION_ID}.jsonl`);

    before(async () => {
      server = await startServer(binary, agentArgs(), env);
      const { chromium } = await import("playwright-core");
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
    });
    after(async () => {
      await browser?.close();
      server?.child.kill("SIGTERM");
      await server?.exited;
    });

    /** A page that records errors, requests to other origins and dialogs; screenshots it on failure. */
    async function withPage(name: string, work: (page: Page) => Promise<void>, options: { width?: number; dark?: boolean } = {}): Promise<void> {
      const page = await browser.newPage({ viewport: { width: options.width ?? 1280, height: 900 }, colorScheme: options.dark ? "dark" : "light" });
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
      page.on("dialog", (d) => (problems.push(`dialog: ${d.message()}`), void d.dismiss()));
      page.on("request", (r) => !r.url().startsWith(server.url) && !r.url().startsWith("data:") && problems.push(`request: ${r.url()}`));
      mkdirSync(OUTPUT, { recursive: true });
      try {
        await work(page);
        assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined, "no payload ran");
        assert.deepEqual(problems, []);
        await page.screenshot({ path: join(OUTPUT, `serve-${name}.png`), fullPage: false });
      } catch (error) {
        await page.screenshot({ path: join(OUTPUT, `serve-${name}-FAILED.png`) }).catch(() => {});
        throw error;
      } finally {
        await page.close();
      }
    }

    it("list → search → open a session → another branch → an entry's context", async () => {
      await withPage("walk", async (page) => {
        await page.goto(server.url);
        await page.waitForSelector("body[data-ready=true]");
        const rows = await page.$$eval("#rows .row", (els) => els.length);
        assert.ok(rows >= 5, `${rows} sessions listed`);
        await page.fill("#q", "colours");
        await page.waitForSelector("#rows .hit");
        assert.match(await page.textContent("#rows") ?? "", /colours/i);
        assert.match(page.url(), /\?q=colours/);
        await page.fill("#q", "");
        await page.waitForSelector(`#rows a[href="/sessions/${SESSION_ID}"]`);
        await page.click(`#rows a[href="/sessions/${SESSION_ID}"]`);
        await page.waitForSelector("#entry-a0000005");
        await page.waitForSelector("#facts dt");
        assert.equal(await page.$("#entry-a0000004"), null, "the side branch is not shown");
        // The other branch, from the tree (the export viewer's sidebar once the script runs).
        await page.click('.sidebar .tree-row[data-id="a0000004"]');
        await page.waitForSelector("#entry-a0000004.target");
        assert.match(page.url(), /\?leaf=a0000004#entry-a0000004$/);
        assert.equal(await page.$("#entry-a0000005"), null, "the main branch's end is not shown");
        assert.match(await page.textContent("#entry-u0000002") ?? "", /Try another way/);
        await page.click("#entry-u0000002 a.ctx");
        await page.waitForSelector("section.messages");
        assert.match(page.url(), /\/sessions\/exp-0001\/context\?leaf=u0000002$/);
        const text = await page.textContent("main") ?? "";
        assert.match(text, /Model context/);
        assert.match(text, /Try another way/);
        assert.ok(text.includes(`<img src=x onerror="window.__pwned='img'">`), "payloads show as text");
        assert.doesNotMatch(text, /Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z/, "secrets masked");
      });
    });

    it("a session's sidebar searches the session and selects the entry found; its filters narrow the tree", async () => {
      await withPage("session-search", async (page) => {
        // A fragment that is not percent-encoding selects nothing and breaks nothing.
        await page.goto(server.url + `sessions/${SESSION_ID}#entry-%E0%A4%A`);
        await page.waitForSelector("body[data-ready=true]");
        await page.waitForSelector('.sidebar .tree-row[data-id="u0000001"]');
        const ids = () => page.$$eval(".sidebar .tree-row", (rows) => rows.map((r) => (r as HTMLElement).dataset.id));
        // Messages rendered as the viewer renders them: markdown, highlighted code.
        await page.waitForSelector("body[data-markdown=true]");
        assert.equal(await page.textContent("#entry-u0000001 .text.md strong"), "bug");
        await page.waitForSelector("#entry-a0000003 .text.md pre code .hljs-keyword");
        // On the branch shown: found through the index, clicked, marked and scrolled to.
        await page.fill(".sidebar .search", "failing");
        await page.waitForSelector('.sidebar[data-search="failing"]');
        assert.deepEqual(await ids(), ["r0000002"]);
        await page.click('.sidebar .tree-row[data-id="r0000002"]');
        await page.waitForSelector("#entry-r0000002.target");
        await page.waitForSelector('.sidebar .tree-row.target[data-id="r0000002"]');
        assert.match(page.url(), /#entry-r0000002$/);
        // pi's filters: only the user's messages, then every entry again.
        await page.fill(".sidebar .search", "");
        await page.click('.sidebar .filter[data-filter="user-only"]');
        await page.waitForSelector('.sidebar[data-filter="user-only"][data-search=""]');
        assert.deepEqual(await ids(), ["u0000001", "u0000003", "u0000002"], "the branch shown first, as pi draws it");
        await page.click('.sidebar .filter[data-filter="all"]');
        await page.waitForSelector('.sidebar[data-filter="all"] .tree-row[data-id="l0000001"]');
        // On another branch: its page, with the entry selected.
        await page.fill(".sidebar .search", "side answer");
        await page.waitForSelector('.sidebar[data-search="side answer"] .tree-row[data-id="a0000004"]');
        await page.click('.sidebar .tree-row[data-id="a0000004"]');
        await page.waitForSelector("#entry-a0000004.target");
        assert.match(page.url(), /\?leaf=a0000004&filter=all#entry-a0000004$/);
        // The toggles open every thinking block.
        await page.click('.sidebar .tree-row[data-id="a0000001"]');
        await page.waitForSelector("#entry-a0000001.target");
        assert.equal(await page.$eval("#entry-a0000001 details.thinking", (d) => (d as HTMLDetailsElement).open), false);
        await page.click('button[data-toggle="thinking"]');
        assert.equal(await page.$eval("#entry-a0000001 details.thinking", (d) => (d as HTMLDetailsElement).open), true);
      });
    });

    it("the sessions page narrows by model and by a date range, and works 420 px wide", async () => {
      await withPage("sessions-filters", async (page) => {
        const listed = () => page.$$eval("#rows .row", (rows) => rows.map((r) => (r as HTMLElement).dataset.id));
        await page.goto(server.url);
        await page.waitForSelector("body[data-ready=true]");
        const { scroll } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth }));
        assert.ok(scroll <= 420, `no sideways scrolling at 420 px (${scroll})`);
        // The models of the stats are offered; a part of one is enough.
        await page.waitForSelector('#models option[value="openai/gpt-4o"]', { state: "attached" });
        await page.fill("#model", "gpt-4o");
        await page.press("#model", "Enter");
        await page.waitForURL(/model=gpt-4o/);
        assert.deepEqual(await listed(), ["legacy-v2-session"]);
        await page.goto(server.url);
        await page.waitForSelector("body[data-ready=true]");
        await page.fill('input[name="since"]', "2025-01-01");
        await page.waitForURL(/since=2025-01-01/);
        await page.waitForSelector("body[data-ready=true]");
        await page.fill('input[name="until"]', "2025-05-31");
        await page.waitForURL(/until=2025-05-31/);
        assert.deepEqual(await listed(), ["legacy-v1-session"]);
        assert.equal(await page.inputValue('input[name="since"]'), "2025-01-01");
        const { scroll: after } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth }));
        assert.ok(after <= 420, `no sideways scrolling at 420 px with filters set (${after})`);
        // Sort and named only apply on change too, and list what the API lists.
        const api = async (query: string) => ((await (await fetch(`${server.url}api/sessions?${query}`)).json()) as { id: string }[]).map((s) => s.id);
        await page.goto(server.url);
        await page.waitForSelector("body[data-ready=true]");
        await page.selectOption('select[name="sort"]', "messages");
        await page.waitForURL(/sort=messages/);
        assert.deepEqual(await listed(), await api("sort=messages"));
        await page.check('input[name="named"]');
        await page.waitForURL(/named=1/);
        const named = await listed();
        assert.deepEqual(named, await api("sort=messages&named=1"));
        assert.ok(named.length >= 1 && named.length < (await api("")).length, `${named.length} named sessions`);
      }, { width: 420 });
    });

    it("the stats page draws non-empty charts", async () => {
      await withPage("stats", async (page) => {
        await page.goto(server.url + "stats");
        await page.waitForSelector("#chart-cost[data-drawn] canvas");
        await page.waitForSelector("#chart-tokens[data-drawn] canvas");
        const drawn = await page.$eval("#chart-cost canvas", (canvas) => {
          const c = canvas as HTMLCanvasElement;
          const pixels = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
          let painted = 0;
          for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
          return { painted, width: c.width };
        });
        assert.ok(drawn.width > 0 && drawn.painted > 100, JSON.stringify(drawn));
        assert.ok(Number(await page.getAttribute("#chart-cost", "data-drawn")) >= 1);
      });
    });

    it("a line appended to the session file appears on its open page, live", async () => {
      await withPage("live", async (page) => {
        await page.goto(server.url + `sessions/${SESSION_ID}`);
        await page.waitForSelector("#live.on");
        await page.waitForSelector("#entry-s0000001");
        const line = { type: "message", id: "live0001", parentId: "s0000001", timestamp: "2025-06-01T12:00:00.000Z", message: { role: "user", content: "Appended while watching <b>live</b>", timestamp: 1 } };
        appendFileSync(sessionFile(), JSON.stringify(line) + "\n");
        await page.waitForSelector("#entry-live0001", { timeout: 10_000 });
        assert.match(await page.textContent("#entry-live0001") ?? "", /Appended while watching <b>live<\/b>/);
        await page.waitForSelector('.tree-row[data-id="live0001"]');
      });
    });

    it("a burst of appended lines over a page's 1 MB appears whole on its open page, live", async () => {
      await withPage("live-burst", async (page) => {
        await page.goto(server.url + `sessions/${SESSION_ID}`);
        await page.waitForSelector("#live.on");
        await page.waitForSelector("#entry-live0001");
        // 30 entries of 50 KB: over the 1 MB that ends an entries page, written at once (one event).
        const filler = "burst ".repeat(50_000 / 6);
        let parentId = "live0001";
        let lines = "";
        for (let i = 1; i <= 30; i++) {
          const id = `burst${String(i).padStart(3, "0")}`;
          lines += JSON.stringify({ type: "message", id, parentId, timestamp: "2025-06-01T12:01:00.000Z", message: { role: "user", content: `${id} ${filler}`, timestamp: 2 } }) + "\n";
          parentId = id;
        }
        assert.ok(lines.length > 1_048_576);
        appendFileSync(sessionFile(), lines);
        await page.waitForSelector("#entry-burst030", { timeout: 15_000 });
        assert.equal(await page.locator('[id^="entry-burst"]').count(), 30);
      });
    });

    it("works 420 px wide and in dark mode", async () => {
      await withPage("narrow-dark", async (page) => {
        await page.goto(server.url);
        await page.waitForSelector("body[data-ready=true]");
        const list = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, background: getComputedStyle(document.body).backgroundColor }));
        assert.ok(list.scroll <= 420, `the sessions page: no sideways scrolling at 420 px (${list.scroll})`);
        assert.equal(list.background, "rgb(13, 17, 23)");
        await page.goto(server.url + `sessions/${SESSION_ID}`);
        await page.waitForSelector("body[data-ready=true]");
        const { scroll, background } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, background: getComputedStyle(document.body).backgroundColor }));
        assert.ok(scroll <= 420, `no sideways scrolling at 420 px (${scroll})`);
        assert.equal(background, "rgb(13, 17, 23)");
      }, { width: 420, dark: true });
    });
  });
});
