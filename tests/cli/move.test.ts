/**
 * Tests for `move`: sessions of a renamed folder land where pi looks for the new cwd (checked
 * with pi's own lookup on disk), headers rewritten with a backup, subfolders, flat custom
 * session dirs, refusals that change nothing, dry runs, and exit codes.
 * @module
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { nodeFileSystem } from "../../src/io/node.ts";
import { defaultSessionDir } from "../../src/core/storage/layout.ts";
import { beforeEach, wrap } from "./_fs-wrappers.ts";
import { addSession, fingerprint, header, jsonl, memoryFs, readText, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

const OLD = "/work/app";
const NEW = "/work/app-v2";
const text = (id: string, cwd: string, extra: Record<string, unknown> = {}) => jsonl(header(id, cwd, extra), userEntry("u1", null, `hello from ${id}`));
const nameOf = (id: string) => `2025-06-01T10-00-00-000Z_${id}.jsonl`;

async function project() {
  const fs = memoryFs();
  await fs.mkdir(NEW, { recursive: true });
  const a = await addSession(fs, "a", [], { cwd: OLD, text: text("a", OLD) });
  const sub = await addSession(fs, "sub", [], { cwd: `${OLD}/web`, text: text("sub", `${OLD}/web`) });
  const fork = await addSession(fs, "fork", [], { cwd: OLD, text: text("fork", OLD, { parentSession: a }) });
  const other = await addSession(fs, "other", [], { cwd: "/work/apple", text: text("other", "/work/apple") });
  return { fs, a, sub, fork, other };
}

describe("move", () => {
  it("move takes a folder's sessions to pi's folder for the new path and rewrites their cwd", { timeout: 120_000 }, async () => {
    const { fs, a, fork, other } = await project();
    const r = await runCli(["move", OLD, NEW, "--exact"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const newA = `${sessionDir(NEW)}/${nameOf("a")}`;
    const newFork = `${sessionDir(NEW)}/${nameOf("fork")}`;
    assert.equal(await fs.stat(a), null);
    assert.equal(await fs.stat(fork), null);
    assert.equal(await readText(fs, newA), text("a", NEW));
    assert.equal(await readText(fs, `${newA}.move.bak`), text("a", OLD));
    // The fork's parent moved with it: its header follows.
    assert.equal(await readText(fs, newFork), text("fork", NEW, { parentSession: newA }));
    assert.equal(await readText(fs, other), text("other", "/work/apple"));
    assert.equal(
      r.stdout,
      `moved: ${a} -> ${newA} (cwd ${OLD} -> ${NEW}; backup ${newA}.move.bak)\n` +
        `moved: ${fork} -> ${newFork} (cwd ${OLD} -> ${NEW}; backup ${newFork}.move.bak)\n`,
    );
    assert.match(r.stderr, /2 sessions moved; `pi -c` in \/work\/app-v2 finds them/);
    const recent = await runCli(["recent"], { fs, processCwd: NEW });
    assert.ok([newA, newFork].includes(recent.stdout.trim()), recent.stdout);
  });

  it("move takes the sessions of subfolders along, unless --exact", { timeout: 120_000 }, async () => {
    const { fs, sub } = await project();
    const r = await runCli(["move", OLD, NEW, "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const results = JSON.parse(r.stdout);
    assert.deepEqual(results.map((m: { action: string; newCwd: string }) => [m.action, m.newCwd]).sort(), [
      ["moved", NEW],
      ["moved", NEW],
      ["moved", `${NEW}/web`],
    ]);
    const moved = `${sessionDir(`${NEW}/web`)}/${nameOf("sub")}`;
    assert.equal(await fs.stat(sub), null);
    assert.equal(await readText(fs, moved), text("sub", `${NEW}/web`));
  });

  it("move --dry-run lists what it would do and writes nothing", { timeout: 120_000 }, async () => {
    const { fs, a } = await project();
    const before = await fingerprint(fs, "/");
    const r = await runCli(["move", OLD, NEW, "--dry-run"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^would move: ${a} -> ${sessionDir(NEW)}/${nameOf("a")} \\(cwd ${OLD} -> ${NEW}\\)$`, "m"));
    assert.equal(r.stdout.split("\n").filter((l) => l.startsWith("would move:")).length, 3);
    assert.match(r.stderr, /3 sessions to move \(dry run: nothing was written\)/);
    assert.equal(await fingerprint(fs, "/"), before);
  });

  it("move refuses a file whose name is taken in the new folder, and one that is locked, changing neither", { timeout: 120_000 }, async () => {
    const { fs, a, fork } = await project();
    await writeText(fs, `${sessionDir(NEW)}/${nameOf("a")}`, text("a", NEW));
    await fs.mkdir(`${fork}.lock`);
    const r = await runCli(["move", OLD, NEW, "--exact"], { fs });
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`error: refused: ${a}: .*already holds a session named like it`));
    assert.match(r.stderr, new RegExp(`error: refused: ${fork}: it is locked by another process`));
    assert.equal(await readText(fs, a), text("a", OLD));
    assert.equal(await readText(fs, fork), text("fork", OLD, { parentSession: a }));
    assert.match(r.stderr, /0 sessions moved, 2 refused/);
  });

  it("move keeps a line appended during the header rewrite, and reports one written to the old path after the move", { timeout: 120_000 }, async () => {
    const { fs: inner, a } = await project();
    const newA = `${sessionDir(NEW)}/${nameOf("a")}`;
    const during = jsonl(userEntry("u2", "u1", "during"));
    const after = jsonl(userEntry("u3", "u2", "after"));
    let step = 0;
    // pi appends by path without our lock: once while the new header is written, once after the rename.
    const fs = wrap(inner, {
      rename: async (from, to) => {
        await inner.rename(from, to);
        if (from === a) await inner.append(a, new TextEncoder().encode(after));
      },
      writeAtomic: async (p, data, options) => {
        if (step++ === 0) await inner.append(newA, new TextEncoder().encode(during));
        return inner.writeAtomic(p, data, options);
      },
    });
    const r = await runCli(["move", OLD, NEW, "--exact", "--json"], { fs });
    assert.equal(r.code, 1);
    assert.equal(await readText(inner, newA), text("a", NEW) + during);
    const [result] = JSON.parse(r.stdout);
    assert.equal(result.action, "moved");
    assert.equal(result.carriedLines, 1);
    assert.match(result.message, /something wrote \d+ bytes to .*_a\.jsonl after the move \(a pi still running there\?\)/);
    assert.equal(await readText(inner, a), after);
  });

  it("move loses no line pi appends to the old path at any moment (each file operation in turn)", { timeout: 120_000 }, async () => {
    for (let moment = 0; ; moment++) {
      const fs = memoryFs();
      await fs.mkdir(NEW, { recursive: true });
      const a = await addSession(fs, "a", [], { cwd: OLD, text: text("a", OLD) });
      const newA = `${sessionDir(NEW)}/${nameOf("a")}`;
      const late = jsonl(userEntry("late", "u1", `appended at operation ${moment}`));
      let calls = 0;
      const r = await runCli(["move", OLD, NEW], {
        fs: beforeEach(fs, async () => {
          if (calls++ === moment) await fs.append(a, new TextEncoder().encode(late));
        }),
      });
      if (calls <= moment) {
        assert.ok(moment > 5, "the loop saw too few operations");
        break;
      }
      const moved = await readText(fs, newA);
      const stray = (await fs.stat(a)) === null ? "" : await readText(fs, a);
      // Before the rename the line travels with the file; after it, pi's append makes a new file
      // at the old path, which move reports (exit 1). Either way it is somewhere, once.
      assert.equal(moved + stray, text("a", NEW) + late, `moment ${moment}`);
      assert.equal(r.code, stray === "" ? 0 : 1, `moment ${moment}: ${r.stderr}`);
      if (stray !== "") assert.match(r.stderr, /warning: something wrote \d+ bytes to .* after the move/);
    }
  });

  it("move in a flat custom session dir rewrites headers in place", { timeout: 120_000 }, async () => {
    const fs = memoryFs();
    const flat = "/flat";
    const mine = `${flat}/${nameOf("m")}`;
    const theirs = `${flat}/${nameOf("t")}`;
    await writeText(fs, mine, text("m", OLD));
    await writeText(fs, theirs, text("t", "/elsewhere"));
    const r = await runCli(["move", OLD, NEW, "--session-dir", flat], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `rewrote: ${mine} (cwd ${OLD} -> ${NEW}; backup ${mine}.move.bak)\n`);
    assert.equal(await readText(fs, mine), text("m", NEW));
    assert.equal(await readText(fs, theirs), text("t", "/elsewhere"));
  });

  it("move finishes a move cut short (file moved, header not yet rewritten)", { timeout: 120_000 }, async () => {
    const fs = memoryFs();
    const there = await addSession(fs, "half", [], { cwd: NEW, text: text("half", OLD) });
    const r = await runCli(["move", OLD, NEW], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^rewrote: /);
    assert.equal(await readText(fs, there), text("half", NEW));
  });

  it("move with nothing to move exits 1; the same or a nested folder is a usage error", { timeout: 120_000 }, async () => {
    const fs = memoryFs();
    const none = await runCli(["move", OLD, NEW], { fs });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /No sessions of \/work\/app or its subfolders found/);
    assert.equal((await runCli(["move", OLD, OLD], { fs })).code, 2);
    assert.equal((await runCli(["move", OLD, `${OLD}/inner`], { fs })).code, 2);
    assert.equal((await runCli(["move", "app", "app-v2"], { fs, processCwd: "/work" })).code, 1);
  });

  it("move resolves relative folders against the current directory", { timeout: 120_000 }, async () => {
    const { fs } = await project();
    const r = await runCli(["move", "app", "app-v2", "--exact", "--dry-run"], { fs, processCwd: "/work" });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /cwd \/work\/app -> \/work\/app-v2/);
  });

  it("move on disk: pi's own lookup for the new folder finds the moved session", { timeout: 120_000 }, async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-move-"));
    try {
      const agent = join(root, "agent");
      const oldCwd = join(root, "proj");
      const newCwd = join(root, "proj-renamed");
      await mkdir(newCwd);
      const oldDir = defaultSessionDir(oldCwd, agent, root);
      await mkdir(oldDir, { recursive: true });
      const file = join(oldDir, nameOf("disk"));
      await writeFile(file, text("disk", oldCwd));
      const r = await runCli(["move", oldCwd, newCwd, "--agent-dir", agent], { fs: nodeFileSystem, processCwd: root });
      assert.equal(r.code, 0, r.stderr);
      const ref = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
      const found = ref.findMostRecentSession(defaultSessionDir(newCwd, agent, root));
      assert.equal(found, join(defaultSessionDir(newCwd, agent, root), nameOf("disk")));
      assert.equal(await readFile(found, "utf8"), text("disk", newCwd));
      assert.equal(ref.findMostRecentSession(oldDir), null);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
