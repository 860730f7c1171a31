/**
 * Reading commands (show, context, tree) say on stderr how many broken lines they skipped and
 * where, pointing at `check`, and keep their exit code; a sound file gets no such word.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { skippedNote } from "../../src/query/skipped-note.ts";
import { issue } from "../../src/core/read/issue.ts";
import { addSession, assistantEntry, header, jsonl, memoryFs, runCli, userEntry } from "./_harness.ts";

/** Header, u1, a broken line (3), a1, a line that is not an object (5), u2, a torn last line (7). */
function broken(): string {
  return [
    jsonl(header("aaaa1111")),
    jsonl(userEntry("u1", null, "hello")),
    '{"type":"message","id":"x1",\n',
    jsonl(assistantEntry("a1", "u1", "hi")),
    "[1, 2]\n",
    jsonl(userEntry("u2", "a1", "more")),
    '{"type":"message","id":"cut',
  ].join("");
}

test("show, context (both paths) and tree say how many lines they skipped and where; exit 0", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "aaaa1111", [], { text: broken() });
  const expected = `warning: skipped 3 broken lines of ${path} (lines 3, 5, 7); run \`pi-session check ${path}\` for details\n`;
  for (const argv of [["show", "aaaa"], ["show", "aaaa", "--format", "json"], ["context", "aaaa"], ["context", "aaaa", "--leaf", "a1"], ["tree", "aaaa"], ["tree", "aaaa", "--json"]]) {
    const run = await runCli(argv, { fs });
    assert.equal(run.code, 0, `${argv.join(" ")}: ${run.stderr}`);
    assert.equal(run.stderr, expected, argv.join(" "));
    assert.notEqual(run.stdout, "", argv.join(" "));
  }
  // -q silences notes, not this: the output lacks those lines.
  assert.equal((await runCli(["-q", "show", "aaaa"], { fs })).stderr, expected);
});

test("a sound session gets no word about skipped lines", async () => {
  const fs = memoryFs();
  await addSession(fs, "bbbb2222", [userEntry("u1", null, "hello"), assistantEntry("a1", "u1", "hi")]);
  for (const argv of [["show", "bbbb"], ["context", "bbbb"], ["tree", "bbbb"]]) {
    assert.equal((await runCli(argv, { fs })).stderr, "", argv.join(" "));
  }
});

test("skippedNote() names the first five lines, one line in the singular, and quotes odd paths", () => {
  const many = [9, 2, 4, 6, 8, 11, 2].map((line) => issue(line, "malformed-json", "…"));
  assert.equal(skippedNote("/s/a.jsonl", many), "skipped 6 broken lines of /s/a.jsonl (lines 2, 4, 6, 8, 9, …); run `pi-session check /s/a.jsonl` for details");
  assert.equal(skippedNote("/s/my a.jsonl", [issue(4, "torn-line", "…"), issue(0, "crlf", "…")]), "skipped 1 broken line of /s/my a.jsonl (line 4); run `pi-session check '/s/my a.jsonl'` for details");
  assert.equal(skippedNote("/s/a.jsonl", [issue(0, "crlf", "…"), issue(3, "missing-parent", "…")]), undefined);
});
