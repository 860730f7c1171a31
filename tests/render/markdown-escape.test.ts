/**
 * Markdown transcripts keep `<tag>` and `Vec<String>` visible once rendered (marked, as GitHub
 * and most viewers do), and leave code as written.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { marked } from "marked";
import { escapeMarkdownHtml } from "../../src/render/markdown-escape.ts";
import { addSession, assistantEntry, memoryFs, runCli, userEntry } from "../cli/_harness.ts";

/** The text a reader sees in rendered HTML: tags dropped, entities decoded. */
function visibleText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

test("escapeMarkdownHtml() escapes < and entity-like & in prose, not in code", () => {
  assert.equal(escapeMarkdownHtml("Use `Vec<u8>` or Vec<String>"), "Use `Vec<u8>` or Vec&lt;String>");
  assert.equal(escapeMarkdownHtml("a &amp; b & c"), "a &amp;amp; b & c");
  assert.equal(escapeMarkdownHtml("```rust\nlet v: Vec<String>;\n```\n<div>"), "```rust\nlet v: Vec<String>;\n```\n&lt;div>");
  assert.equal(escapeMarkdownHtml("~~~~\n<a>\n~~~\nstill <code>\n~~~~\nout <b>"), "~~~~\n<a>\n~~~\nstill <code>\n~~~~\nout &lt;b>");
  assert.equal(escapeMarkdownHtml("``a ` <b>`` and `unclosed <c>"), "``a ` <b>`` and `unclosed &lt;c>");
  assert.equal(escapeMarkdownHtml("a code span `across\n<lines>` stays"), "a code span `across\n<lines>` stays");
});

test("show and export --format markdown keep <tag> and Vec<String> visible when rendered with marked", async () => {
  const fs = memoryFs();
  const prose = "Wrap it in <tag> and return Vec<String> & friends &amp; more";
  const code = "Keep `Option<T>` as is:\n\n```rust\nfn f() -> Vec<String> {}\n```";
  await addSession(fs, "aaaa1111", [userEntry("u1", null, prose), assistantEntry("a1", "u1", code)]);
  for (const argv of [["show", "aaaa1111", "--format", "markdown"], ["export", "aaaa1111", "--format", "markdown", "-o", "-"]]) {
    const run = await runCli(argv, { fs });
    assert.equal(run.code, 0, run.stderr);
    const seen = visibleText(await marked.parse(run.stdout));
    assert.ok(seen.includes(prose), seen);
    assert.ok(seen.includes("Keep Option<T> as is:"), seen);
    assert.ok(seen.includes("fn f() -> Vec<String> {}"), seen);
  }
});
