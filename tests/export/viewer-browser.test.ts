/**
 * The HTML viewer in a real browser (Debian's Chromium, headless, driven by playwright-core):
 * hostile session content runs nothing and stays readable, no request leaves the page, the
 * tree's filters and search work, deep links land on their entry, a long session renders
 * lazily, and a screenshot is kept in .cache/test-output/ for people to look at.
 * Node only (playwright-core drives the browser over pipes); skipped without /usr/bin/chromium
 * (install it with `apt-get install chromium`).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { nodeFileSystem } from "../../src/io/node.ts";
import { at } from "../core/_builders.ts";
import { runCli } from "../cli/_harness.ts";
import { fixtureText, MAIN_BRANCH, SIDE_BRANCH } from "./_fixture.ts";

const CHROMIUM = "/usr/bin/chromium";
const g = globalThis as { Deno?: unknown; Bun?: unknown };
const skip = g.Deno || g.Bun
  ? "playwright-core drives Chromium from Node; this test runs under Node"
  : !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install chromium)`
  : false;

const OUTPUT = fileURLToPath(new URL("../../.cache/test-output/", import.meta.url));

type Browser = import("playwright-core").Browser;
type Page = import("playwright-core").Page;

describe("HTML export in Chromium", { skip }, () => {
  let browser: Browser;
  let work = "";
  const files: Record<string, string> = {};

  async function exportTo(name: string, source: string, args: string[]): Promise<string> {
    const out = join(work, name);
    const run = await runCli(["export", source, "-o", out, ...args], { fs: nodeFileSystem, processCwd: work, home: "/home/u" });
    assert.equal(run.code, 0, run.stderr);
    return out;
  }

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-viewer-"));
    const source = join(work, "fixture.jsonl");
    writeFileSync(source, fixtureText());
    files.branch = await exportTo("branch.html", source, []);
    files.all = await exportTo("all.html", source, ["--all-branches"]);
    // A long session: 1,500 turns of user, assistant with a tool call, tool result.
    const lines = [JSON.stringify({ type: "session", version: 3, id: "long-1", timestamp: at(0), cwd: "/w" })];
    let parent: string | null = null;
    let n = 0;
    const add = (fields: Record<string, unknown>) => {
      const id = `e${(++n).toString().padStart(7, "0")}`;
      lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: at(n), ...fields }));
      parent = id;
    };
    for (let turn = 0; turn < 1500; turn++) {
      add({ message: { role: "user", content: `Question ${turn}`, timestamp: n } });
      add({ message: { role: "assistant", content: [{ type: "text", text: `Answer ${turn}` }, { type: "toolCall", id: `c${turn}`, name: "bash", arguments: { command: `echo ${turn}` } }], provider: "p", model: "m", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 } }, stopReason: "toolUse", timestamp: n } });
      add({ message: { role: "toolResult", toolCallId: `c${turn}`, toolName: "bash", content: [{ type: "text", text: `${turn}\n`.repeat(50) }], isError: false, timestamp: n } });
    }
    const long = join(work, "long.jsonl");
    writeFileSync(long, lines.join("\n") + "\n");
    files.long = await exportTo("long.html", long, []);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
  });

  after(async () => {
    await browser?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Opens an export; collects every request that is not the file itself, and page errors. */
  async function open(file: string, suffix = ""): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    const url = pathToFileURL(file).href;
    page.on("request", (request) => {
      if (!request.url().startsWith(url) && !request.url().startsWith("data:")) requests.push(request.url());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(url + suffix);
    await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
    return { page, requests, errors };
  }

  const rowIds = (page: Page) => page.$$eval(".tree-row", (rows) => rows.map((r) => (r as HTMLElement).dataset.id));

  it("shows the branch with hostile content as text: nothing runs, nothing is fetched", async () => {
    const { page, requests, errors } = await open(files.branch);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "export-viewer.png") });
    const ids = await page.$$eval(".messages [data-id]", (els) => els.map((e) => (e as HTMLElement).dataset.id));
    for (const id of MAIN_BRANCH) assert.ok(ids.includes(id), `entry ${id} is shown`);
    assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined);
    const text = await page.evaluate(() => document.body.innerText);
    assert.ok(text.includes("<img src=x onerror=\"window.__pwned='img'\">"), "payloads are shown as text");
    assert.ok(text.includes("sk-proj-…[redacted openai key]"));
    assert.ok(text.includes("fixed </script><b>label</b>"), "labels are shown as text");
    const unsafe = await page.evaluate(() => ({
      handlers: Array.from(document.querySelectorAll("*")).filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith("on"))).length,
      // Only the virtual tree positions rows (through CSSOM, which the CSP allows).
      styled: Array.from(document.querySelectorAll("[style]")).filter((el) => el.getAttribute("style") !== "" && !el.matches(".tree-row, .tree-spacer")).length,
      scripts: document.querySelectorAll("script:not([type])").length,
      badLinks: Array.from(document.querySelectorAll("a[href]")).filter((a) => /^\s*(javascript|data|vbscript):/i.test(a.getAttribute("href")!)).length,
      remoteImages: Array.from(document.querySelectorAll("img")).filter((img) => !img.getAttribute("src")!.startsWith("data:image/png")).length,
      images: document.querySelectorAll("img").length,
      frames: document.querySelectorAll("iframe, object, embed, svg, link, style:not(head style)").length,
    }));
    assert.deepEqual(unsafe, { handlers: 0, styled: 0, scripts: 1, badLinks: 0, remoteImages: 0, images: 1, frames: 0 });
    assert.deepEqual(requests, []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("the tree filters and search narrow the rows", async () => {
    const { page } = await open(files.all);
    const initial = await rowIds(page);
    assert.ok(initial.includes("a0000004"), "all branches are in the tree");
    assert.equal(initial.includes("m0000001"), false, "default hides settings entries");
    await page.click('.filter[data-filter="user-only"]');
    assert.deepEqual(await rowIds(page), ["u0000001", "u0000003", "s0000001", "u0000002"]);
    await page.click('.filter[data-filter="labeled-only"]');
    assert.deepEqual(await rowIds(page), ["a0000003", "s0000001"]);
    await page.click('.filter[data-filter="all"]');
    // Everything but the assistant turn that only calls a tool (pi hides those in every mode).
    assert.equal((await rowIds(page)).length, 14);
    assert.equal((await rowIds(page)).includes("a0000002"), false);
    await page.click('.filter[data-filter="no-tools"]');
    assert.equal((await rowIds(page)).some((id) => id!.startsWith("r")), false);
    await page.click('.filter[data-filter="default"]');
    await page.fill(".search", "side answer");
    assert.deepEqual(await rowIds(page), ["a0000004"]);
    // Choosing a row of another branch shows that branch.
    await page.click('.tree-row[data-id="a0000004"]');
    await page.waitForSelector('.messages [data-id="a0000004"]');
    const shown = await page.$$eval(".messages [data-id]", (els) => els.map((e) => (e as HTMLElement).dataset.id));
    assert.equal(shown.includes("u0000003"), false);
    for (const id of SIDE_BRANCH.filter((id) => id !== "r0000001" && id !== "r0000002")) assert.ok(shown.includes(id), id);
    await page.close();
  });

  it("deep links (#entry-ID and ?leafId=&targetId=) open the right branch at the entry", async () => {
    for (const suffix of ["#entry-u0000002", "?leafId=a0000004&targetId=u0000002"]) {
      const { page } = await open(files.all, suffix);
      const target = page.locator('.messages [data-id="u0000002"]');
      await target.waitFor();
      assert.ok(await target.isVisible());
      const box = (await target.boundingBox())!;
      assert.ok(box.y >= 0 && box.y < 900, `entry is in view (y=${box.y})`);
      assert.ok(await page.locator('.tree-row.target[data-id="u0000002"]').count(), "the tree marks it");
      await page.close();
    }
  });

  it("a malformed deep link (#entry-%E0%A4%A) is ignored: the page shows its branch, no error", async () => {
    const { page, errors } = await open(files.all, "#entry-%E0%A4%A");
    assert.ok(await page.locator(".messages .entry").count() > 0, "the conversation is shown");
    // The same fragment after loading (a hashchange) leaves the page as it is.
    const shown = await page.$$eval(".messages .entry", (els) => els.length);
    await page.evaluate(() => {
      location.hash = "#entry-%E0%A4%A";
    });
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    assert.equal(await page.$$eval(".messages .entry", (els) => els.length), shown);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("renders a long session lazily and still jumps to its last entry", async () => {
    const { page, requests } = await open(files.long);
    const initial = await page.$$eval(".messages .entry", (els) => els.length);
    assert.ok(initial > 0 && initial < 150, `only a window is rendered (${initial})`);
    await page.evaluate(() => {
      location.hash = "#entry-e0004500";
    });
    const last = page.locator('.messages [data-id="e0004500"]');
    await last.waitFor();
    assert.ok(((await last.boundingBox())!.y) < 900);
    assert.ok(await page.$$eval(".messages .entry", (els) => els.length) < 300);
    // Scrolling to the end of the window loads more.
    await page.evaluate(() => {
      location.hash = "#entry-e0000001";
    });
    await page.locator('.messages [data-id="e0000001"]').waitFor();
    const before = await page.$$eval(".messages .entry", (els) => els.length);
    await page.evaluate(() => document.querySelector(".content")!.scrollTo(0, 1e9));
    await page.waitForFunction((n) => document.querySelectorAll(".messages .entry").length > n, before);
    assert.deepEqual(requests, []);
    await page.close();
  });
});
