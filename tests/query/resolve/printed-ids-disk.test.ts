/**
 * Printed ids resolve back on a real disk, through the runtime's own catalog (SQLite where it has
 * one), on sessions written by pi 1.6's own SessionManager in quick succession, so that their
 * UUIDv7 ids share long prefixes across three projects, as pi's parallel runs and subagents do.
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { detectFileSystem } from "../../../src/io/mod.ts";
import { uniquePrefixesAmong } from "../../../src/render/unique-prefix.ts";
import { runCli } from "../../cli/_harness.ts";
// The package's "exports" hides dist/, so the reference is imported by path.
import { getDefaultSessionDir, SessionManager } from "../../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

const work = mkdtempSync(join(tmpdir(), "pi-session-printed-ids-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const PROJECTS = ["/work/alpha", "/work/beta", "/work/gamma"];

function usage() {
  return { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

const ids: string[] = [];
for (let i = 0; i < 12; i++) {
  const cwd = PROJECTS[i % 3];
  const manager = SessionManager.create(cwd, getDefaultSessionDir(cwd, agentDir));
  manager.appendMessage({ role: "user", content: `zebra task ${i}`, timestamp: Date.now() });
  manager.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: "done" }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-test",
    usage: usage(),
    stopReason: "stop",
    timestamp: Date.now(),
  });
  ids.push(manager.getSessionId());
}

const cli = (argv: string[], cwd: string) =>
  runCli([...argv, "--cwd", cwd], { fs: detectFileSystem(), env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "cache") }, home: work, processCwd: work });

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

test("ids that list and search print open their own session from every project", async () => {
  // The corpus has the trouble it is made for: ids of different projects sharing 9+ characters.
  const longest = Math.max(...ids.flatMap((a, i) => ids.slice(i + 1).map((b) => sharedPrefix(a, b))));
  assert.ok(longest >= 9, `ids share ${longest} characters at most: ${ids.join(" ")}`);
  for (const from of PROJECTS) {
    for (const argv of [["list"], ["list", "--limit", "2"], ["list", "--search", "zebra"], ["list", "--all"], ["list", "--all", "--limit", "3"], ["list", "--all", "--search", "zebra"], ["search", "zebra"], ["search", "zebra", "--all"]]) {
      const run = await cli(argv, from);
      assert.equal(run.code, 0, `${argv.join(" ")}: ${run.stderr}`);
      const printed = run.stdout.split("\n").map((line) => /(?:^|\s)([0-9a-f]{8}[0-9a-f-]*)(?=\s)/.exec(line)?.[1]).filter((id) => id !== undefined && ids.some((full) => full.startsWith(id)));
      assert.ok(printed.length > 0, `${argv.join(" ")} in ${from} prints ids:\n${run.stdout}`);
      for (const short of printed) {
        const full = ids.filter((id) => id.startsWith(short!));
        assert.equal(full.length, 1, `${short} is the prefix of one id`);
        // And no longer than that takes (at least 8 characters), whichever way the ids were compared.
        assert.equal(short, uniquePrefixesAmong([full[0]], ids).get(full[0]), `${argv.join(" ")} in ${from}`);
        for (const cwd of PROJECTS) {
          const info = await cli(["info", short!, "--json"], cwd);
          assert.equal(info.code, 0, `${short} (from \`${argv.join(" ")}\` in ${from}) pasted in ${cwd}: ${info.stderr}`);
          assert.equal(JSON.parse(info.stdout).id, full[0]);
        }
      }
    }
  }
});

test("a prefix shared by sessions of several projects is ambiguous from each of them", async () => {
  // The two ids of different projects (i % 3) that share the longest prefix.
  const pairs = ids.flatMap((x, i) => ids.map((y, j) => [i, j, x, y] as const).filter(([, j]) => j > i && j % 3 !== i % 3));
  const [, , a, b] = pairs.sort((p, q) => sharedPrefix(q[2], q[3]) - sharedPrefix(p[2], p[3]))[0];
  const prefix = a.slice(0, sharedPrefix(a, b));
  for (const cwd of PROJECTS) {
    const run = await cli(["info", prefix], cwd);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`Session reference "${prefix}" matches \\d+ sessions:`));
    assert.ok(run.stderr.includes(a) && run.stderr.includes(b), run.stderr);
  }
});

test("completion offers the same ids through the catalog's index as from every header read: this directory's first, newest first", async () => {
  // The catalog's listing first (its index of ids covers every project once a listing saw them all).
  assert.equal((await cli(["list", "--all"], PROJECTS[0])).code, 0);
  const offline = (argv: string[], cwd: string) =>
    runCli([...argv, "--cwd", cwd], { fs: detectFileSystem(), env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "cache"), PI_SESSION_CATALOG: "off" }, home: work, processCwd: work });
  const mtime = (id: string) => statSync(join(getDefaultSessionDir(PROJECTS[ids.indexOf(id) % 3], agentDir), readdirSync(getDefaultSessionDir(PROJECTS[ids.indexOf(id) % 3], agentDir)).find((name) => name.includes(id))!)).mtimeMs;
  for (const prefix of ["", ids[4].slice(0, 9), ids[7], "0", "zz"]) {
    for (const cwd of PROJECTS) {
      const indexed = await cli(["__complete-sessions", prefix], cwd);
      const read = await offline(["__complete-sessions", prefix], cwd);
      assert.equal(indexed.code, 0, indexed.stderr);
      const offered = indexed.stdout.split("\n").filter(Boolean);
      assert.deepEqual(offered, read.stdout.split("\n").filter(Boolean), `prefix "${prefix}" from ${cwd}`);
      assert.deepEqual([...offered].sort(), ids.filter((id) => id.startsWith(prefix)).sort());
      // This directory's sessions first, then the others, each newest first.
      const here = offered.filter((id) => ids.indexOf(id) % 3 === PROJECTS.indexOf(cwd));
      assert.deepEqual(offered.slice(0, here.length), here);
      for (const part of [here, offered.slice(here.length)]) for (let i = 1; i < part.length; i++) assert.ok(mtime(part[i - 1]) >= mtime(part[i]));
    }
  }
});
