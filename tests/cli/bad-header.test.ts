/**
 * A session header whose `id` is missing, empty or not a string:
 * such a file is skipped by every listing command with a one-line note, and `check` reports it
 * as `bad-header`; the good sessions beside it are still listed.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addSession, CWD, jsonl, memoryFs, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

const TS = "2025-06-01T10:00:00.000Z";
const BAD: Record<string, [Record<string, unknown>, RegExp]> = {
  "no-id": [{ type: "session", version: 3, timestamp: TS, cwd: CWD }, /it has no "id"/],
  "number-id": [{ type: "session", version: 3, id: 42, timestamp: TS, cwd: CWD }, /its "id" is a number, not a string/],
  "object-id": [{ type: "session", version: 3, id: { a: 1 }, timestamp: TS, cwd: CWD }, /its "id" is an object, not a string/],
  "empty-id": [{ type: "session", version: 3, id: "", timestamp: TS, cwd: CWD }, /its "id" is empty/],
};

async function sessions() {
  const fs = memoryFs();
  await addSession(fs, "good1111", [userEntry("u1", null, "needle in a good file")]);
  for (const [name, [head]] of Object.entries(BAD)) {
    await writeText(fs, `${sessionDir()}/${name}.jsonl`, jsonl(head, userEntry("u1", null, "needle in a bad file")));
  }
  return fs;
}

for (const argv of [["list"], ["list", "--json"], ["list", "--all"], ["search", "needle"], ["files", "x"], ["stats", "--all"], ["blocks"], ["du"], ["prune", "--older-than", "1d", "--dry-run"], ["recent"]]) {
  test(`${argv.join(" ")} skips a file whose header has a bad id, without an internal error`, async () => {
    const fs = await sessions();
    const run = await runCli(argv, { fs });
    assert.doesNotMatch(run.stderr, /internal error|TypeError/);
    assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}: ${run.stderr}`);
    assert.doesNotMatch(run.stdout, /bad file/);
    if (argv[0] === "list") assert.match(run.stdout, /good/);
  });
}

for (const argv of [["list"], ["search", "needle"], ["files", "x"], ["stats", "--all"]]) test(`${argv.join(" ")} notes each skipped file on stderr with the reason, one line each`, async () => {
  const fs = await sessions();
  const run = await runCli(argv, { fs });
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  const notes = run.stderr.trim().split("\n").filter((line) => line.startsWith("pi-session: skipped"));
  assert.equal(notes.length, Object.keys(BAD).length, run.stderr);
  for (const [name, [, why]] of Object.entries(BAD)) {
    const note = notes.find((n) => n.includes(`/${name}.jsonl`));
    assert.ok(note, `no note for ${name}`);
    assert.match(note, why);
  }
});

test("check reports a header with a bad id as bad-header on line 1", async () => {
  const fs = await sessions();
  const run = await runCli(["--json", "check", sessionDir()], { fs });
  assert.equal(run.code, 1, run.stderr);
  const problems = JSON.parse(run.stdout).problems as { path: string; line: number; code: string; message: string }[];
  for (const [name, [, why]] of Object.entries(BAD)) {
    const found = problems.filter((p) => p.path.endsWith(`/${name}.jsonl`));
    assert.deepEqual(found.map((p) => [p.line, p.code]), [[1, "bad-header"]], name);
    assert.match(found[0].message, why);
  }
});

test("info on a file whose header has a numeric id exits 3 and says why", async () => {
  const fs = await sessions();
  const run = await runCli(["info", `${sessionDir()}/number-id.jsonl`], { fs });
  assert.equal(run.code, 3);
  assert.match(run.stderr, /its "id" is a number, not a string/);
});
