/**
 * `du` (disk use per project, largest sessions) and `prune` (old or large sessions to the
 * trash, by delete's rules), over sessions whose files have different ages and sizes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseBytes } from "../../src/cli/output/bytes.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { addSession, CWD, fingerprint, HOME, harnessDeps, NOW, runCli, sessionDir, userEntry } from "./_harness.ts";
import { run as runMain } from "../../src/cli/run.ts";

const DAY = 86400e3;
const OTHER = "/work/other";

/** A user message at `ms`, entry and message timestamps both: what `modified` (last activity) reads. */
function said(text: string, ms: number) {
  const entry = userEntry("u1", null, text);
  return { ...entry, timestamp: new Date(ms).toISOString(), message: { ...(entry.message as object), timestamp: ms } };
}

/** Three sessions here (200 days old and big, 10 days old, new) and one of another project. */
async function setup() {
  let clock = NOW.getTime();
  const fs = new MemoryFileSystem({ clock: () => clock, cwd: CWD });
  clock = NOW.getTime() - 200 * DAY;
  const old = await addSession(fs, "11111111-aaaa", [said("old and big " + "x".repeat(5000), clock)]);
  clock = NOW.getTime() - 10 * DAY;
  const recent = await addSession(fs, "22222222-bbbb", [said("recent", clock)]);
  clock = NOW.getTime();
  const fresh = await addSession(fs, "33333333-cccc", [said("fresh", clock)]);
  clock = NOW.getTime() - 100 * DAY;
  const other = await addSession(fs, "44444444-dddd", [said("elsewhere " + "y".repeat(2000), clock)], { cwd: OTHER });
  clock = NOW.getTime();
  const size = async (path: string) => (await fs.stat(path))!.size;
  return { fs, old, recent, fresh, other, size };
}

test("parseBytes() reads sizes in powers of 1024 and refuses what is not one", () => {
  assert.equal(parseBytes("50MB"), 50 * 1024 * 1024);
  assert.equal(parseBytes("1.5g"), 1.5 * 1024 ** 3);
  assert.equal(parseBytes("700k"), 700 * 1024);
  assert.equal(parseBytes("2 GiB"), 2 * 1024 ** 3);
  assert.equal(parseBytes("123"), 123);
  for (const bad of ["", "MB", "5 parsecs", "-1MB", "ib"]) assert.equal(parseBytes(bad), undefined, bad);
});

test("du --json gives the disk use per project and the largest sessions", async () => {
  const { fs, old, recent, fresh, other, size } = await setup();
  const run = await runCli(["du", "--json", "--limit", "2"], { fs });
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  const here = (await size(old)) + (await size(recent)) + (await size(fresh));
  assert.equal(json.schemaVersion, 1);
  assert.equal(json.totalBytes, here + (await size(other)));
  assert.equal(json.sessionCount, 4);
  assert.deepEqual(json.projects, [{ cwd: CWD, sessions: 3, bytes: here }, { cwd: OTHER, sessions: 1, bytes: await size(other) }]);
  assert.deepEqual(json.largest.map((s: { path: string; bytes: number }) => [s.path, s.bytes]), [[old, await size(old)], [other, await size(other)]]);
  const project = JSON.parse((await runCli(["du", "--json", "--project", "."], { fs })).stdout);
  assert.deepEqual(project.projects.map((p: { cwd: string }) => p.cwd), [CWD]);
});

test("du prints projects and the largest sessions within the terminal's width", async () => {
  const { fs } = await setup();
  const out = { stdout: "", stderr: "" };
  const code = await runMain(["du"], { ...harnessDeps({ fs, stdoutIsTTY: true, env: { NO_COLOR: "1" } }, out), columns: 60 });
  assert.equal(code, 0, out.stderr);
  const lines = out.stdout.trimEnd().split("\n");
  for (const line of lines) assert.ok(line.length <= 60, line);
  assert.match(lines[0], /^Project\s+Sessions\s+Size$/);
  assert.match(lines[1], /^\/work\/proj\s+3\s+\d+\.\d KB$/);
  assert.match(lines[3], /^Total\s+4\s+\d+\.\d KB$/);
  assert.match(out.stdout, /Largest sessions\n\d+\.\d KB {2}11111111 {2}\/work\/proj\s+old and big x+…?\n/);
  assert.equal((await runCli(["du"], { fs: new MemoryFileSystem({ cwd: CWD }) })).code, 1);
});

test("prune --older-than --dry-run lists the old sessions of every project and moves nothing", async () => {
  const { fs, old, other } = await setup();
  const before = await fingerprint(fs, `${HOME}/.pi`);
  const run = await runCli(["prune", "--older-than", "90d", "--dry-run", "--json"], { fs });
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  assert.deepEqual(json.sessions.map((s: { path: string; action: string }) => [s.path, s.action]), [[old, "would-trash"], [other, "would-trash"]]);
  assert.equal(json.dryRun, true);
  assert.equal(await fingerprint(fs, `${HOME}/.pi`), before);
  const text = await runCli(["prune", "--older-than", "90d", "--dry-run", "--project", "."], { fs });
  assert.equal(text.stdout, `would move to trash: ${old} (5.1 KB, 2025-06-16)\n`);
  assert.match(text.stderr, /1 session\(s\), .*; nothing moved \(dry run\)/);
});

test("prune --yes moves the matching sessions to the trash as delete does, and keeps the rest", async () => {
  const { fs, old, recent, fresh, other } = await setup();
  const run = await runCli(["prune", "--older-than", "2025-09-01", "--larger-than", "3KB", "--yes"], { fs });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `moved to trash: ${old}\n`);
  assert.match(run.stderr, /1 session\(s\) moved to the trash/);
  assert.equal(await fs.stat(old), null);
  assert.ok(await fs.stat(`${HOME}/.local/share/Trash/files/${old.split("/").pop()}`));
  for (const kept of [recent, fresh, other]) assert.ok(await fs.stat(kept), kept);
  const json = JSON.parse((await runCli(["prune", "--larger-than", "1KB", "--yes", "--json"], { fs })).stdout);
  assert.deepEqual(json.sessions.map((s: { path: string; action: string }) => [s.path, s.action]), [[other, "trashed"]]);
  assert.equal(json.sessions[0].trashPath, `${HOME}/.local/share/Trash/files/${other.split("/").pop()}`);
});

test("prune refuses without a criterion, with a bad one, and without --yes off a terminal", async () => {
  const { fs, old } = await setup();
  const none = await runCli(["prune"], { fs });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /prune needs --older-than or --larger-than/);
  assert.equal((await runCli(["prune", "--larger-than", "lots"], { fs })).code, 2);
  assert.equal((await runCli(["prune", "--older-than", "ages"], { fs })).code, 2);
  const unasked = await runCli(["prune", "--older-than", "90d"], { fs });
  assert.equal(unasked.code, 2);
  assert.match(unasked.stderr, /Refusing to delete without --yes when not on a terminal/);
  assert.ok(await fs.stat(old));
  const declined = await runCli(["prune", "--older-than", "90d"], { fs, stdinIsTTY: true, confirm: async () => false });
  assert.equal(declined.code, 1);
  assert.ok(await fs.stat(old));
  const nothing = await runCli(["prune", "--older-than", "900d", "--yes"], { fs });
  assert.equal(nothing.code, 1);
  assert.match(nothing.stderr, /No sessions match/);
  void sessionDir;
});
