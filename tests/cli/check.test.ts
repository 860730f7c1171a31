/**
 * Tests for `check`: a hostile file's exact codes and lines, clean files, notes and --strict,
 * file-level issues, directories, references, --json, and the exit codes 0, 1, 2 and 3.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeFileSystem } from "../../src/io/node.ts";
import { assistant, at, branchSummary, user } from "../core/_builders.ts";
import { addSession, harnessDeps, header, jsonl, memoryFs, runCli, sessionDir, writeText } from "./_harness.ts";
import { wrap } from "./_fs-wrappers.ts";
import { run } from "../../src/cli/run.ts";

const TS = at(0);
const line = (o: unknown) => JSON.stringify(o);

/** Every kind of damage the checks know, one per line (line numbers in the comments). */
const HOSTILE = [
  line({ type: "session", version: 3, id: "h1", timestamp: TS, cwd: "/work/proj" }), // 1
  line({ type: "message", id: "u1", parentId: null, timestamp: TS, message: { role: "user", content: "hi" } }), // 2
  line({ type: "message", id: "a1", parentId: "u1" }), // 3: no timestamp, no message
  "{not json", // 4
  line({ type: "mystery", id: "x1", parentId: "u1", timestamp: TS }), // 5
  line({ type: "message", id: "r1", parentId: "u1", timestamp: TS, message: { role: "robot" } }), // 6
  line({ type: "compaction", id: "k1", parentId: "u1", timestamp: TS, summary: "s", tokensBefore: "many", firstKeptEntryId: "x1" }), // 7
  line({ type: "compaction", id: "k2", parentId: "k1", timestamp: TS, summary: 5, tokensBefore: 1, retainedTail: {} }), // 8
  line({ type: "branch_summary", id: "s1", parentId: "k2", timestamp: TS, fromId: "nowhere", summary: "x" }), // 9
  line({ type: "label", id: "l1", parentId: "s1", timestamp: TS, targetId: "ghost", label: "x" }), // 10
  line({ type: "message", id: "u1", parentId: null, timestamp: TS, message: { role: "user", content: "again" } }), // 11
  line({ type: "message", id: "o1", parentId: "gone", timestamp: TS, message: { role: "user", content: "orphan" } }), // 12
  line({ type: "custom", id: "c1", parentId: "u1", timestamp: "yesterday", customType: "x" }), // 13
  "[1,2]", // 14
  line({ id: "n1", parentId: "u1", timestamp: TS }), // 15: no type
  line({ type: "message", id: "y1", parentId: "y2", timestamp: TS, message: { role: "user", content: "loop" } }), // 16
  line({ type: "message", id: "y2", parentId: "y1", timestamp: TS, message: { role: "user", content: "loop" } }), // 17
  '{"type":"mess', // 18: torn, no final newline
].join("\n");

const HOSTILE_PATH = "/work/proj/hostile.jsonl";

async function hostile() {
  const fs = memoryFs();
  await writeText(fs, HOSTILE_PATH, HOSTILE);
  return fs;
}

test("check reports every problem of a hostile file with its code, line and entry", async () => {
  const fs = await hostile();
  const r = await runCli(["--json", "check", "hostile.jsonl"], { fs });
  assert.equal(r.code, 1, r.stderr);
  const { files, problems } = JSON.parse(r.stdout);
  assert.equal(files, 1);
  assert.deepEqual(problems.map((p: { line: number; code: string; entryId: string | null }) => [p.line, p.code, p.entryId]), [
    [3, "missing-field", "a1"],
    [3, "missing-field", "a1"],
    [4, "malformed-json", null],
    [5, "unknown-type", "x1"],
    [6, "unknown-role", "r1"],
    [7, "bad-field", "k1"],
    [7, "compaction-off-path", "k1"],
    [8, "bad-field", "k2"],
    [8, "bad-field", "k2"],
    [9, "unknown-from-id", "s1"],
    [10, "label-target-missing", "l1"],
    [11, "duplicate-id", "u1"],
    [12, "missing-parent", "o1"],
    [13, "bad-field", "c1"],
    [14, "not-an-object", null],
    [15, "missing-field", "n1"],
    [17, "cycle", "y2"],
    [18, "torn-line", null],
  ]);
  for (const p of problems) assert.deepEqual(Object.keys(p), ["path", "line", "entryId", "code", "message"]);
  assert.ok(problems.every((p: { path: string }) => p.path === HOSTILE_PATH));
});

test("check prints one ripgrep-style line per problem and a summary", async () => {
  const fs = await hostile();
  const r = await runCli(["check", HOSTILE_PATH], { fs });
  assert.equal(r.code, 1);
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 19);
  assert.equal(lines[0], `${HOSTILE_PATH}:3: [missing-field] Entry "a1" has no "timestamp" field (entry a1)`);
  assert.ok(lines.includes(`${HOSTILE_PATH}:7: [bad-field] Entry "k1": "tokensBefore" is "many", not a number (entry k1)`));
  assert.ok(lines.includes(`${HOSTILE_PATH}:7: [compaction-off-path] Compaction "k1" keeps entries from "x1", which is not on its own branch; nothing before the compaction is kept (entry k1)`));
  assert.ok(lines.includes(`${HOSTILE_PATH}:8: [bad-field] Entry "k2": "summary" is 5, not a string (entry k2)`));
  assert.ok(lines.includes(`${HOSTILE_PATH}:8: [bad-field] Entry "k2": "retainedTail" is an object, not an array of messages (entry k2)`));
  assert.ok(lines.includes(`${HOSTILE_PATH}:13: [bad-field] Entry "c1": "timestamp" is "yesterday", not an ISO date (entry c1)`));
  assert.ok(lines.includes(`${HOSTILE_PATH}:14: [not-an-object] Line 14 is an array, not an entry object`));
  assert.ok(lines.includes(`${HOSTILE_PATH}:15: [missing-field] Entry "n1" has no "type" field (entry n1)`));
  assert.equal(lines.at(-1), "1 file checked, 17 problems, 1 note");
});

test("check of a clean session exits 0", async () => {
  const fs = memoryFs();
  await addSession(fs, "clean111", [user("u1", null, "hi"), assistant("a1", "u1", "hello"), branchSummary("b1", "a1", "root", "back")]);
  const r = await runCli(["check", "clean111"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "1 file checked, 0 problems\n");
  const json = await runCli(["check", "@", "--json"], { fs });
  assert.deepEqual(JSON.parse(json.stdout), { schemaVersion: 1, files: 1, problems: [] });
});

test("check reports an old format version as a note that fails only with --strict", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "old22222", [user("u1", null, "hi")], { text: line({ ...header("old22222"), version: 2 }) + "\n" + line(user("u1", null, "hi")) + "\n" });
  const r = await runCli(["check", path], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    `${path}:1: [legacy-version] The file is format version 2; pi reads it, but run \`pi-session migrate\` to rewrite it as version 3\n1 file checked, 0 problems, 1 note\n`,
  );
  const strict = await runCli(["check", "--strict", path], { fs });
  assert.equal(strict.code, 1);
  assert.match(strict.stdout, /1 file checked, 1 problem\n$/);
});

test("check reports a newer format version and bad header fields", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "new44444", [], { text: line({ type: "session", version: 4, id: "new44444", timestamp: "soon", cwd: 7 }) + "\n" });
  const r = await runCli(["--json", "check", path], { fs });
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout).problems.map((p: { code: string; line: number }) => [p.line, p.code]), [[1, "version-newer"], [1, "bad-field"], [1, "bad-field"]]);
});

test("check reports BOM, CRLF and a missing final newline as problems; line 0 prints without a number", async () => {
  const fs = memoryFs();
  const text = "\uFEFF" + line(header("crlf5555")) + "\r\n" + line(user("u1", null, "hi"));
  const path = await addSession(fs, "crlf5555", [], { text });
  const r = await runCli(["check", path], { fs });
  assert.equal(r.code, 1);
  assert.equal(
    r.stdout,
    [
      `${path}: [crlf] Lines end with CRLF instead of LF`,
      `${path}:1: [bom] The file starts with a UTF-8 byte order mark`,
      `${path}:2: [missing-newline] The file does not end with a newline (line 2)`,
      "1 file checked, 3 problems",
      "",
    ].join("\n"),
  );
});

test("check of a directory reads the .jsonl files in it and one folder down", async () => {
  const fs = memoryFs();
  const root = "/home/u/.pi/agent/sessions";
  await addSession(fs, "aaaa0001", [user("u1", null, "hi")]);
  await addSession(fs, "bbbb0002", [user("u1", "zz", "hi")], { cwd: "/other" });
  await writeText(fs, `${root}/stray.jsonl`, "not json\n");
  await writeText(fs, `${root}/notes.txt`, "ignored\n");
  const r = await runCli(["check", root, "--json"], { fs });
  assert.equal(r.code, 1, "a non-session found in a directory is a problem, not a fatal error");
  const { files, problems } = JSON.parse(r.stdout);
  assert.equal(files, 3);
  assert.deepEqual(problems.map((p: { path: string; code: string }) => [p.path.slice(root.length + 1), p.code]), [
    ["--other--/2025-06-01T10-00-00-000Z_bbbb0002.jsonl", "missing-parent"],
    ["stray.jsonl", "not-a-session"],
    ["stray.jsonl", "malformed-json"],
  ]);
  assert.equal((await runCli(["check", sessionDir()], { fs })).code, 0);
});

test("check exits 3 for a named file that is not a session or cannot be read, still checking the others", async () => {
  const fs = await hostile();
  await writeText(fs, "/work/proj/plain.jsonl", '{"a":1}\n');
  const good = await addSession(fs, "good6666", [user("u1", null, "hi")]);
  const r = await runCli(["check", "plain.jsonl", "missing.jsonl", good], { fs });
  assert.equal(r.code, 3);
  assert.equal(
    r.stdout,
    [
      "/work/proj/plain.jsonl:1: [not-a-session] Line 1 should be a session header ({\"type\":\"session\",\"id\":…}) but is not",
      '/work/proj/missing.jsonl: [unreadable] Cannot read "/work/proj/missing.jsonl": no such file or directory',
      "2 files checked, 2 problems",
      "",
    ].join("\n"),
  );
});

test("check reports a symbolic link loop as unreadable, in plain words, and still checks the other files", async () => {
  const dir = await mkdtemp(join(tmpdir(), "pi-session-check-loop-"));
  try {
    const good = join(dir, "good.jsonl");
    await writeFile(good, line({ type: "session", version: 3, id: "g1", timestamp: TS, cwd: dir }) + "\n");
    await symlink(join(dir, "loop-b.jsonl"), join(dir, "loop-a.jsonl"));
    await symlink(join(dir, "loop-a.jsonl"), join(dir, "loop-b.jsonl"));
    const loop = join(dir, "loop-a.jsonl");
    const r = await runCli(["check", loop, good], { fs: nodeFileSystem, processCwd: dir, home: dir });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, `${loop}: [unreadable] Cannot read "${loop}": too many symbolic links (a link loop?)\n1 file checked, 1 problem\n`);
    // A directory holding the loop: the loop is neither a file nor a folder, so it is passed over.
    const listed = await runCli(["check", dir], { fs: nodeFileSystem, processCwd: dir, home: dir });
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout, "1 file checked, 0 problems\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("check exits 2 for a reference that names no session, after checking the rest", async () => {
  const fs = memoryFs();
  const good = await addSession(fs, "good7777", [user("u1", null, "hi")]);
  const r = await runCli(["check", "nosuch", good], { fs });
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'pi-session: No session found matching "nosuch"\nhint: Run `pi-session list --all` to see session ids\n');
  assert.equal(r.stdout, "1 file checked, 0 problems\n");
});

test("check --help explains notes and --strict", async () => {
  const r = await runCli(["check", "--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Validate session files/);
  assert.match(r.stdout, /--strict/);
  assert.match(r.stdout, /legacy-version/);
  assert.match(r.stdout, /Examples:/);
});

test("check reads a file named twice once, and notes an empty directory", async () => {
  const fs = memoryFs();
  const good = await addSession(fs, "twice888", [user("u1", null, "hi")]);
  const r = await runCli(["check", good, "twice888", sessionDir()], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "1 file checked, 0 problems\n");
  await fs.mkdir("/work/proj/empty", { recursive: true });
  const empty = await runCli(["check", "empty"], { fs });
  assert.equal(empty.code, 0);
  assert.equal(empty.stdout, "0 files checked, 0 problems\n");
  assert.equal(empty.stderr, "No .jsonl files in /work/proj/empty\n");
});

test("check keeps escape sequences from the file off the terminal, but not out of --json", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "esc99999", [{ type: "\x1b[2Jwipe", id: "e\x1b1", parentId: null, timestamp: TS }]);
  const r = await runCli(["check", path], { fs });
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout, /\x1b/);
  assert.match(r.stdout, /\[unknown-type\] Entry "e 1" has unknown type " \[2Jwipe"/);
  const json = await runCli(["check", path, "--json"], { fs });
  assert.equal(JSON.parse(json.stdout).problems[0].entryId, "e\x1b1");
});

test("check refuses a named FIFO as unreadable (exit 3) instead of waiting on it forever", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "pi-session-check-fifo-"));
  try {
    const fifo = join(dir, "pipe.jsonl");
    try {
      execFileSync("mkfifo", [fifo]);
    } catch {
      t.skip("mkfifo is not available here");
      return;
    }
    const good = join(dir, "good.jsonl");
    await writeFile(good, line({ type: "session", version: 3, id: "g1", timestamp: TS, cwd: dir }) + "\n");
    // Nobody ever writes to the pipe: a check that opened it would never return.
    const r = await runCli(["check", fifo, good], { fs: nodeFileSystem, processCwd: dir, home: dir });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, `${fifo}: [unreadable] ${fifo} is a pipe or a device, not a session file\n1 file checked, 1 problem\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("check of a directory prints each file's problems in order as it goes, and reads files over 64 MB one at a time", async () => {
  const memory = memoryFs();
  const root = "/home/u/.pi/agent/sessions";
  const paths: string[] = [];
  for (let i = 0; i < 6; i++) paths.push(await addSession(memory, `id${i}`, [user("u1", "zz", "hi")]));
  // Files 2 and 3 say they are 100 MB: they must not be read side by side.
  const big = new Set([paths[2], paths[3]]);
  const out = { stdout: "", stderr: "" };
  let bigReading = 0;
  let mostBigReading = 0;
  let printedBeforeLast = "";
  const fs = wrap(memory, {
    stat: async (p) => {
      const stat = await memory.stat(p);
      return stat && big.has(p) ? { ...stat, size: 100_000_000 } : stat;
    },
    read: (p, range) => (async function* () {
      if (p === paths[5]) printedBeforeLast = out.stdout;
      if (big.has(p)) mostBigReading = Math.max(mostBigReading, ++bigReading);
      // A turn of the event loop per chunk, so that reads started together do overlap.
      for await (const chunk of memory.read(p, range)) yield await new Promise<Uint8Array>((resolve) => setTimeout(() => resolve(chunk), 1));
      if (big.has(p)) bigReading--;
    })(),
  });
  const code = await run(["check", root], harnessDeps({ fs }, out));
  assert.equal(code, 1);
  const lines = out.stdout.trim().split("\n");
  assert.deepEqual(lines.map((l) => l.split(":")[0]), [...paths, "6 files checked, 6 problems"]);
  assert.ok(printedBeforeLast.includes(paths[0]), "the first file's problem is out before the last file is read");
  assert.equal(mostBigReading, 1);
});

test("check of a directory lists each folder only when the walk reaches it, in the order of the sorted paths", async () => {
  const memory = memoryFs();
  const root = "/data/sessions";
  const bad = (id: string) => jsonl(header(id, "/w"), { type: "message", id: "u1", parentId: "zz", timestamp: TS, message: { role: "user", content: "x" } });
  // Names that sort differently as names and as paths: "a.jsonl" < "a/…" < "a-b/…" < "a0.jsonl".
  const files = [`${root}/a-b/x.jsonl`, `${root}/a.jsonl`, `${root}/a/y.jsonl`, `${root}/a/x.jsonl`, `${root}/a0.jsonl`, `${root}/b/z.jsonl`];
  for (const [i, path] of files.entries()) await writeText(memory, path, bad(`id${i}`));
  const events: string[] = [];
  const fs = wrap(memory, {
    list: (d) => (events.push(`list ${d}`), memory.list(d)),
    read: (p, range) => (events.push(`read ${p}`), memory.read(p, range)),
  });
  const out = { stdout: "", stderr: "" };
  assert.equal(await run(["check", root], harnessDeps({ fs }, out)), 1);
  assert.deepEqual(out.stdout.trim().split("\n").map((l) => l.split(":")[0]), [...[...files].sort(), "6 files checked, 6 problems"]);
  // The last folder is listed after the first files were read: no list of every path is made first.
  assert.ok(events.indexOf(`list ${root}/b`) > events.indexOf(`read ${root}/a.jsonl`), events.join("\n"));
});

test("check of a directory and of a folder in it reads each file once", async () => {
  const fs = memoryFs();
  const root = "/home/u/.pi/agent/sessions";
  const one = await addSession(fs, "once0001", [user("u1", "zz", "hi")]);
  await addSession(fs, "once0002", [user("u1", null, "hi")], { cwd: "/other" });
  const r = await runCli(["check", root, sessionDir(), one], { fs });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout.split("\n").filter((l) => l.startsWith(one)).length, 1);
  assert.match(r.stdout, /^2 files checked, 1 problem$/m);
});
