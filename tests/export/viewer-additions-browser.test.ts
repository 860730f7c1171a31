/**
 * The HTML viewer's branch lines in the sidebar tree, its "Download JSONL" button (a file
 * pi's own SessionManager opens, with the entries of the page), and the note on why its cost
 * differs from pi's own HTML export. In Debian's Chromium, headless (playwright-core).
 * Node only; skipped without /usr/bin/chromium.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { nodeFileSystem } from "../../src/io/node.ts";
import { runCli } from "../cli/_harness.ts";
import { fixtureText, parseHtmlExport } from "./_fixture.ts";

const CHROMIUM = "/usr/bin/chromium";
const g = globalThis as { Deno?: unknown; Bun?: unknown };
const skip = g.Deno || g.Bun
  ? "playwright-core drives Chromium from Node; this test runs under Node"
  : !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install chromium)`
  : false;

type Browser = import("playwright-core").Browser;
type Page = import("playwright-core").Page;

describe("HTML viewer additions in Chromium", { skip }, () => {
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
    work = mkdtempSync(join(tmpdir(), "pi-session-viewer-ux-"));
    const source = join(work, "fixture.jsonl");
    writeFileSync(source, fixtureText());
    files.branch = await exportTo("branch.html", source, []);
    files.all = await exportTo("all.html", source, ["--all-branches"]);
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

  async function open(file: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
    return { page, errors };
  }

  it("the sidebar tree draws ├─ and └─ at a fork and │ while a later branch is still to come", async () => {
    const { page, errors } = await open(files.all);
    await page.click('.filter[data-filter="all"]');
    const rows = await page.$$eval(".tree-row", (els) => els.map((el) => ({ id: (el as HTMLElement).dataset.id, guide: el.querySelector(".guide")?.textContent ?? "" })));
    const guide = Object.fromEntries(rows.map((row) => [row.id, row.guide]));
    // a0000003 forks: the compaction (main line, first) and the label (side branch, last).
    assert.equal(guide.a0000003, "");
    assert.equal(guide.c0000001, "├─");
    assert.equal(guide.u0000003, "│ ", "the main line's later rows keep the line to the side branch");
    assert.equal(guide.l0000001, "└─");
    assert.equal(guide.a0000004, "  ");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("Download JSONL saves the page's session, which pi's SessionManager opens", async () => {
    for (const file of [files.branch, files.all]) {
      const { page, errors } = await open(file);
      const [saved] = await Promise.all([page.waitForEvent("download"), page.click("button.download")]);
      assert.equal(saved.suggestedFilename(), "exp-0001.jsonl");
      const path = join(work, `downloaded-${file.endsWith("all.html") ? "all" : "branch"}.jsonl`);
      await saved.saveAs(path);
      const lines = readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
      const embedded = parseHtmlExport(readFileSync(file, "utf8"));
      assert.deepEqual(lines[0], embedded.meta.header);
      assert.deepEqual(lines.slice(1), embedded.entries);
      const { SessionManager } = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
      const manager = SessionManager.open(path, work);
      assert.equal(manager.getHeader()?.id, "exp-0001");
      assert.deepEqual(manager.getEntries().map((e: { id: string }) => e.id), embedded.entries.map((e) => e.id));
      assert.ok(manager.buildSessionContext().messages.length > 0);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  it("the page says what its cost counts besides pi's own export", async () => {
    const { page } = await open(files.all);
    const notes = await page.$eval(".session-head .notes", (el) => el.textContent ?? "");
    assert.match(notes, /Costs count what pi's \/session counts: assistant messages plus the usage of tool results, compactions, branch summaries and usage entries/);
    assert.match(notes, /pi's own HTML export adds up the assistant messages of every branch only/);
    await page.close();
  });
});
