/**
 * `files`: which sessions and entries touched a path, relative paths resolved against each
 * session's cwd, directories matching what is under them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryFs, runCli } from "./_harness.ts";
import { usageSessions } from "./_usage-sessions.ts";

async function setup() {
  const fs = memoryFs();
  await usageSessions(fs);
  return (...argv: string[]) => runCli(["files", ...argv], { fs });
}

test("files lists the sessions and entries that touched a file", async () => {
  const files = await setup();
  const run = await files("src/parser.ts");
  assert.equal(run.code, 0, run.stderr);
  // Sessions whose latest use of the path is newest come first.
  assert.equal(run.stdout, [
    "11111111  Parser fix  ~/.pi/agent/sessions/--work-proj--/2025-06-01T10-00-00-000Z_11111111-aaaa.jsonl",
    "  2025-06-01T10:00:01.000Z  a1  read     src/parser.ts",
    "  2025-06-02T10:00:00.000Z  a2  edit     /work/proj/src/parser.ts",
    "",
    "22222222  /work/proj  ~/.pi/agent/sessions/--work-proj--/2025-06-03T10-00-00-000Z_22222222-bbbb.jsonl",
    "  2025-06-01T10:00:01.000Z  a1  read     src/parser.ts",
    "",
  ].join("\n"));
});

test("files --all --json resolves each session's relative paths against its own cwd", async () => {
  const files = await setup();
  const sessions = JSON.parse((await files("/work/proj/src/parser.ts", "--all", "--json")).stdout);
  assert.deepEqual(sessions.map((s: { id: string; refs: { entryId: string; op: string; path: string; resolved: string }[] }) => [s.id, s.refs.map((r) => [r.entryId, r.op, r.path, r.resolved])]), [
    ["33333333-cccc", [["o1", "read", "../proj/src/parser.ts", "/work/proj/src/parser.ts"]]],
    ["11111111-aaaa", [["a1", "read", "src/parser.ts", "/work/proj/src/parser.ts"], ["a2", "edit", "/work/proj/src/parser.ts", "/work/proj/src/parser.ts"]]],
    ["22222222-bbbb", [["a1", "read", "src/parser.ts", "/work/proj/src/parser.ts"]]],
  ]);
});

test("files matches everything under a directory, bash commands included", async () => {
  const files = await setup();
  const refs = JSON.parse((await files("test", "--json")).stdout).flatMap((s: { refs: { op: string; command?: string }[] }) => s.refs.map((r) => [r.op, r.command]));
  assert.deepEqual(refs, [["bash", "npm test -- test/parser.test.ts"], ["bash", "npm test -- test/parser.test.ts"]]);
  const docs = JSON.parse((await files("docs", "--json")).stdout);
  assert.deepEqual(docs.map((s: { refs: { op: string; path: string }[] }) => s.refs.map((r) => [r.op, r.path])), [[["write", "docs/notes.md"]]]);
});

test("files exits 1 when nothing touched the path", async () => {
  const files = await setup();
  const run = await files("nowhere.txt");
  assert.equal(run.code, 1);
  assert.match(run.stderr, /No session touched \/work\/proj\/nowhere\.txt; try --all/);
});

test("files refuses an empty path (exit 2) rather than taking the current directory", async () => {
  const files = await setup();
  for (const empty of ["", "  "]) {
    const run = await files(empty, "--all");
    assert.equal(run.code, 2);
    assert.match(run.stderr, /files needs a path, not an empty argument/);
  }
});

test("files takes a glob: *, ?, ** and {a,b} against the resolved paths, relative ones from this directory", async () => {
  const files = await setup();
  const uses = async (...argv: string[]) => {
    const run = await files(...argv, "--json");
    const sessions = JSON.parse(run.stdout) as { id: string; refs: { entryId: string; op: string; resolved: string }[] }[];
    return [run.code, sessions.flatMap((s) => s.refs.map((r) => `${s.id} ${r.entryId} ${r.op} ${r.resolved}`))];
  };
  assert.deepEqual(await uses("**/*.ts"), [0, [
    "11111111-aaaa a1 read /work/proj/src/parser.ts",
    "11111111-aaaa a1 bash /work/proj/test/parser.test.ts",
    "11111111-aaaa a2 edit /work/proj/src/parser.ts",
    "22222222-bbbb a1 read /work/proj/src/parser.ts",
    "22222222-bbbb a1 bash /work/proj/test/parser.test.ts",
  ]]);
  assert.deepEqual(await uses("{docs,test}/*.{md,json}"), [0, ["22222222-bbbb a3 write /work/proj/docs/notes.md"]]);
  assert.deepEqual(await uses("src/pars?r.ts", "--all"), await uses("/work/proj/src/parser.ts", "--all"));
  // Another project's session reads ../proj/src/parser.ts from its own cwd.
  assert.deepEqual((await uses("/work/*/src/*", "--all"))[1], [
    "33333333-cccc o1 read /work/proj/src/parser.ts",
    "11111111-aaaa a1 read /work/proj/src/parser.ts",
    "11111111-aaaa a2 edit /work/proj/src/parser.ts",
    "22222222-bbbb a1 read /work/proj/src/parser.ts",
  ]);
  // * stays in one folder: docs/notes.md is not *.md of this directory.
  assert.deepEqual(await uses("*.md"), [1, []]);
  const none = await files("*.md");
  assert.match(none.stderr, /No session touched \/work\/proj\/\*\.md; try --all/);
  const text = await files("src/*");
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^11111111  Parser fix  [^\n]*\n  2025-06-01T10:00:01\.000Z  a1  read     src\/parser\.ts\n/);
});
