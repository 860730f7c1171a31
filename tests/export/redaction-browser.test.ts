/**
 * Secrets as the HTML page shows them in a real browser (Debian's Chromium, headless): every
 * kind, as written and with its first characters as JSON `\u` escapes (which the viewer decodes),
 * is masked in the page's text. Node only (playwright-core); skipped without /usr/bin/chromium.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { nodeFileSystem } from "../../src/io/node.ts";
import { at } from "../core/_builders.ts";
import { runCli } from "../cli/_harness.ts";
import { NEW_KINDS } from "../core/redact/_secret-cases.ts";

const CHROMIUM = "/usr/bin/chromium";
const g = globalThis as { Deno?: unknown; Bun?: unknown };
const skip = g.Deno || g.Bun
  ? "playwright-core drives Chromium from Node; this test runs under Node"
  : !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install chromium)`
  : false;

/** [text, the part that must not show]: issue 16's kinds and the issue's own escaped token. */
const CASES: [string, string][] = [
  ["token ghp_1234567890abcdefghijABCDEFGHIJklmnop12", "1234567890abcdefghijABCDEFGHIJ"],
  ["key sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n", "Ab3dEf6hIj9kLm2nOp5qRs8t"],
  ...NEW_KINDS.map(([, input, expected]): [string, string] => {
    let start = 0;
    while (input[start] === expected[start]) start++;
    let end = 0;
    while (input[input.length - 1 - end] === expected[expected.length - 1 - end]) end++;
    return [input, input.slice(start, input.length - end)];
  }),
];

/** The first 4 characters of `secret` in a JSON line, and the 4 before them, as `\u` escapes. */
function escapeAround(line: string, secret: string): string {
  const json = JSON.stringify(secret).slice(1, -1);
  const at = line.indexOf(json);
  const from = Math.max(line.lastIndexOf(" ", at) + 1, at - 4);
  let out = "";
  for (let i = from; i < at + 4; i++) out += /["\\]/.test(line[i]) ? line[i] : `\\u${line.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return line.slice(0, from) + out + line.slice(at + 4);
}

describe("HTML export in Chromium: secrets", { skip }, () => {
  let browser: import("playwright-core").Browser;
  let work = "";

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-secrets-"));
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  });

  after(async () => {
    await browser?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const escaped of [false, true]) {
    it(`no secret shows in the page${escaped ? ", behind \\u escapes" : ""}`, async () => {
      const lines = [JSON.stringify({ type: "session", version: 3, id: "secrets-1", timestamp: at(0), cwd: "/w" })];
      let parent: string | null = null;
      for (const [n, [text, secret]] of CASES.entries()) {
        const id = `u${String(n).padStart(7, "0")}`;
        const line = JSON.stringify({ type: "message", id, parentId: parent, timestamp: at(n + 1), message: { role: "user", content: `case ${n}: ${text}`, timestamp: n } });
        lines.push(escaped ? escapeAround(line, secret) : line);
        parent = id;
      }
      const source = join(work, `s${escaped}.jsonl`);
      const out = join(work, `s${escaped}.html`);
      writeFileSync(source, lines.join("\n") + "\n");
      const run = await runCli(["export", source, "-o", out], { fs: nodeFileSystem, processCwd: work, home: "/home/u" });
      assert.equal(run.code, 0, run.stderr);
      const page = await browser.newPage({ viewport: { width: 1280, height: 4000 } });
      await page.goto(pathToFileURL(out).href);
      await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
      const text = await page.evaluate(() => document.body.innerText);
      await page.close();
      for (const [n] of CASES.entries()) assert.ok(text.includes(`case ${n}:`), `case ${n} is shown`);
      for (const [input, secret] of CASES) assert.ok(!text.includes(secret), `the page shows ${JSON.stringify(secret)} of ${JSON.stringify(input)}`);
      assert.equal(text.split("…[redacted ").length - 1 >= CASES.length, true, "every case says what was masked");
    });
  }
});
