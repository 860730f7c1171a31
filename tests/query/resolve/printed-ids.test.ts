/**
 * Printed session ids resolve back, from any directory, to the session they were printed for:
 * on a corpus of UUIDv7 ids that share long prefixes across projects (as sessions started
 * close together do), `list`, `search`, `files` and `stats` shorten ids among every known
 * session, and a prefix that matches here and elsewhere is ambiguous (exit 2), not this one.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { MemoryFileSystem } from "../../../src/io/memory.ts";
import { addSession, assistantEntry, memoryFs, runCli, userEntry } from "../../cli/_harness.ts";

const HERE = "/work/proj";
const THERE = "/work/other";
const ELSEWHERE = "/work/third";

/** Ids as pi's UUIDv7 gives them to sessions started within the same millisecond or two. */
const ID = {
  here: "019a2b3c-4d5e-7001-8a00-000000000001",
  there: "019a2b3c-4d5e-7001-8a00-000000000002",
  hereToo: "019a2b3c-4d5f-7002-8b00-000000000003",
  third: "019a2b3c-4d5f-7002-8b00-000000000004",
};

function readEntry(id: string, parentId: string, path: string) {
  const message = {
    role: "assistant",
    content: [{ type: "toolCall", id: `call-${id}`, name: "read", arguments: { path } }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-test",
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "toolUse",
    timestamp: 1748772003000,
  };
  return { type: "message", id, parentId, timestamp: "2025-06-01T10:00:03.000Z", message };
}

async function corpus(): Promise<MemoryFileSystem> {
  const fs = memoryFs();
  // Entry ids of their own: entries with the same id and time count as copies in `stats`.
  const session = (id: string, cwd: string) => {
    const n = id.slice(-4);
    return addSession(fs, id, [userEntry(`u${n}`, null, `fix the zebra parser in ${cwd}`), assistantEntry(`a${n}`, `u${n}`, "done"), readEntry(`t${n}`, `a${n}`, `${cwd}/notes.md`)], { cwd });
  };
  await session(ID.here, HERE);
  await session(ID.there, THERE);
  await session(ID.hereToo, HERE);
  await session(ID.third, ELSEWHERE);
  return fs;
}

/** The session file `ref` opens, run from `cwd`, or the exit code and message. */
async function opens(fs: MemoryFileSystem, ref: string, cwd: string): Promise<string> {
  const run = await runCli(["info", ref, "--json", "--cwd", cwd], { fs });
  return run.code === 0 ? JSON.parse(run.stdout).id : `exit ${run.code}: ${run.stderr}`;
}

/** The (shortened) ids at the start of the printed lines that name a session. */
function printedIds(stdout: string): string[] {
  return stdout.split("\n").map((line) => /^\s*\S+\s+\d+\s+(019\S+)|^(019\S+)/.exec(line)).filter((m) => m !== null).map((m) => m![1] ?? m![2]);
}

test("ids printed by list, list --all, search, files and stats open their own session from every directory", async () => {
  const fs = await corpus();
  const commands = [
    ["list"],
    ["list", "--all"],
    ["search", "zebra"],
    ["search", "zebra", "--all"],
    ["files", "notes.md"],
    ["files", "/work/other/notes.md", "--all"],
    ["stats", "--by", "session"],
    ["stats", "--by", "session", "--all"],
  ];
  for (const from of [HERE, THERE]) {
    for (const argv of commands) {
      const run = await runCli([...argv, "--cwd", from], { fs });
      assert.equal(run.code, 0, `${argv.join(" ")}: ${run.stderr}`);
      const ids = argv[0] === "stats" ? [...run.stdout.matchAll(/^(019\S+)/gm)].map((m) => m[1]) : printedIds(run.stdout);
      assert.ok(ids.length > 0, `${argv.join(" ")} from ${from} prints ids:\n${run.stdout}`);
      for (const short of ids) {
        const full = Object.values(ID).find((id) => id.startsWith(short));
        assert.ok(full, `${short} is a prefix of an id`);
        for (const cwd of [HERE, THERE, ELSEWHERE]) {
          assert.equal(await opens(fs, short, cwd), full, `${short} printed by \`${argv.join(" ")}\` in ${from}, pasted in ${cwd}`);
        }
      }
    }
  }
});

test("a prefix of a session here and of one elsewhere is ambiguous: exit 2 listing both", async () => {
  const fs = await corpus();
  // Before, this directory's match won silently, and so this opened ID.here.
  const run = await runCli(["info", "019a2b3c-4d5e", "--cwd", HERE], { fs });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /Session reference "019a2b3c-4d5e" matches 2 sessions:/);
  assert.match(run.stderr, new RegExp(ID.here));
  assert.match(run.stderr, new RegExp(ID.there));
  assert.match(run.stderr, /hint: Type more characters of the id, or pass the file path/);
});

test("a full id and a prefix of only one session still resolve; a copy here wins over the same id elsewhere", async () => {
  const fs = await corpus();
  assert.equal(await opens(fs, ID.there, HERE), ID.there);
  assert.equal(await opens(fs, "019a2b3c-4d5e-7001-8a00-000000000002", ELSEWHERE), ID.there);
  assert.equal(await opens(fs, "019a2b3c-4d5f-7002-8b00-000000000004", HERE), ID.third);
  // The same session copied into this directory: the id names one session, and here, this copy.
  const copy = await addSession(fs, ID.there, [userEntry("u1", null, "copied")], { cwd: HERE });
  const run = await runCli(["info", "019a2b3c-4d5e-7001-8a00-000000000002", "--json", "--cwd", HERE], { fs });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).path, copy);
});
