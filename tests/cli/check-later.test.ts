/**
 * The put-off full check (src/cli/check-later.ts): a read-only command whose catalog's last full
 * check is over a minute old answers by the quick check and starts itself again in the
 * background with `PI_SESSION_CHECK=full`; one such run at a time (its mark); the run removes
 * its mark. In process with a recorded start, then with real processes: the background run
 * really happens, records its full check, and the next run sees what the quick one could not.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { LATER_MARK_ENV, laterMark, MARK_STALE_MS } from "../../src/cli/check-later.ts";
import { run } from "../../src/cli/run.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { AGENT_DIR, assistantEntry, CWD, harnessDeps, header, jsonl, NOW, readText, userEntry, writeText } from "./_harness.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const FOLDER = `${AGENT_DIR}/sessions/--work-proj--`;
const FILE = `${FOLDER}/2026-01-01T00-00-00-000Z_s1.jsonl`;

/** A memory file system and a CLI over it whose clock (the files' and the run's) the test moves. */
function world() {
  let clock = NOW.getTime();
  const fs = new MemoryFileSystem({ clock: () => clock, cwd: CWD });
  const starts: Record<string, string>[] = [];
  const env: Record<string, string> = { PI_SESSION_CATALOG: "file" };
  const cli = async (argv: string[], extra: Record<string, string> = {}) => {
    const out = { stdout: "", stderr: "" };
    const deps = { ...harnessDeps({ fs, env: { ...env, ...extra }, now: new Date(clock) }, out), runAgainDetached: async (e: Record<string, string>) => (starts.push(e), true) };
    assert.equal(await run(argv, deps), 0, out.stderr);
    return out.stdout;
  };
  const mark = laterMark(harnessDeps({ env }, { stdout: "", stderr: "" }).storage);
  return { fs, cli, starts, mark, tick: (ms: number) => void (clock += ms) };
}

describe("a read-only command puts off a stale full check (in process)", () => {
  it("answers by the quick check, starts one background run, which checks in full and removes its mark", async () => {
    const { fs, cli, starts, mark, tick } = world();
    await writeText(fs, FILE, jsonl(header("s1"), userEntry("u1", null, "first question"), assistantEntry("a1", "u1", "first answer")));
    const messages = async (extra?: Record<string, string>) => JSON.parse(await cli(["list", "--all", "--json"], extra))[0].messageCount;
    // A day later (the file no longer "active"): a cold build, a full check.
    tick(DAY);
    assert.equal(await messages(), 2);
    assert.deepEqual(starts, [], "a full check made now needs none later");
    await fs.append(FILE, new TextEncoder().encode(jsonl(userEntry("u2", "a1", "second question"), assistantEntry("a2", "u2", "second answer"))));

    // Two minutes on: the quick check (the append is not seen), and one start asked for.
    tick(2 * MINUTE);
    assert.equal(await messages(), 2);
    assert.deepEqual(starts, [{ PI_SESSION_CHECK: "full", [LATER_MARK_ENV]: mark }]);
    assert.ok(await fs.stat(mark), "the mark is made before the start");
    // While that run has not ended (its mark fresh), no second one.
    tick(1000);
    assert.equal(await messages(), 2);
    assert.equal(starts.length, 1);

    // The background run itself: with its environment, a full check; then its mark is gone.
    tick(1000);
    assert.equal(await messages(starts[0]), 4);
    assert.equal(await fs.stat(mark), null);
    // Within the minute after it, nothing is put off and the append is seen.
    tick(1000);
    assert.equal(await messages(), 4);
    assert.equal(starts.length, 1);
  });

  it("replaces a mark left by a run that never ended, and no other file is removed through the variable", async () => {
    const { fs, cli, starts, mark, tick } = world();
    await writeText(fs, FILE, jsonl(header("s1"), userEntry("u1", null, "question")));
    tick(DAY);
    await cli(["list", "--all"]);
    await writeText(fs, mark, "left behind\n");
    tick(MARK_STALE_MS + 1000);
    await cli(["list", "--all"]);
    assert.equal(starts.length, 1, "a stale mark does not stop a start");
    // The variable naming another file: it is left alone.
    await writeText(fs, "/home/u/keep.txt", "mine\n");
    tick(1000);
    await cli(["list", "--all"], { [LATER_MARK_ENV]: "/home/u/keep.txt" });
    assert.equal(await readText(fs, "/home/u/keep.txt"), "mine\n");
  });

  it("a start that fails leaves no mark behind: the next run tries again", async () => {
    const { fs, mark, tick } = world();
    await writeText(fs, FILE, jsonl(header("s1"), userEntry("u1", null, "question")));
    let tries = 0;
    const cli = async (argv: string[], at: number) => {
      const out = { stdout: "", stderr: "" };
      const deps = { ...harnessDeps({ fs, env: { PI_SESSION_CATALOG: "file" }, now: new Date(at) }, out), runAgainDetached: async () => (tries++, false) };
      assert.equal(await run(argv, deps), 0, out.stderr);
    };
    const t0 = NOW.getTime() + DAY;
    tick(DAY);
    await cli(["list", "--all"], t0);
    tick(2 * MINUTE);
    await cli(["list", "--all"], t0 + 2 * MINUTE);
    assert.equal(tries, 1);
    assert.equal(await fs.stat(mark), null);
    tick(1000);
    await cli(["list", "--all"], t0 + 2 * MINUTE + 1000);
    assert.equal(tries, 2);
  });

  it("a command not marked read-only (`info`) makes the full check at once and starts nothing", async () => {
    const { fs, cli, starts, tick } = world();
    await writeText(fs, FILE, jsonl(header("s1"), userEntry("u1", null, "question"), assistantEntry("a1", "u1", "answer")));
    tick(DAY);
    await cli(["list", "--all"]);
    tick(2 * MINUTE);
    await cli(["info", "s1"]);
    assert.deepEqual(starts, []);
    // It made the full check itself: a `list` right after has none to put off.
    await cli(["list", "--all"]);
    assert.deepEqual(starts, []);
    // Where a `list` two minutes on does.
    tick(2 * MINUTE);
    await cli(["list", "--all"]);
    assert.equal(starts.length, 1);
  });
});

const MAIN = new URL("../../src/cli/main.ts", import.meta.url).pathname;

/** The CLI under the runtime running this test, and whether it can start itself again (not Deno's). */
function cliCommand(): { argv: string[]; again: boolean } {
  const g = globalThis as { Bun?: unknown; Deno?: { execPath(): string } };
  if (g.Bun !== undefined) return { argv: [process.execPath, MAIN], again: true };
  if (g.Deno !== undefined) return { argv: [g.Deno.execPath(), "run", "-A", "--no-check", MAIN], again: false };
  return { argv: [process.execPath, "--import", "tsx", MAIN], again: true };
}

describe("the put-off full check with real processes", () => {
  it("the background run records a full check, and the run after it sees the change the quick check missed", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-session-later-"));
    try {
      const folder = join(root, "agent", "sessions", "--work-proj--");
      const file = join(folder, "2026-01-01T00-00-00-000Z_s1.jsonl");
      mkdirSync(folder, { recursive: true });
      writeFileSync(file, jsonl(header("s1"), userEntry("u1", null, "first question"), assistantEntry("a1", "u1", "first answer")));
      // Two days old, the files and their folders: not active, and listed long after their mtime.
      const old = new Date(Date.now() - 2 * DAY);
      for (const path of [file, folder, join(root, "agent", "sessions")]) utimesSync(path, old, old);
      const cache = join(root, "cache");
      const { argv, again } = cliCommand();
      const env = { ...process.env, XDG_CACHE_HOME: cache, PI_SESSION_CATALOG: "file", PI_CODING_AGENT_DIR: join(root, "agent") };
      const count = () => {
        const done = spawnSync(argv[0], [...argv.slice(1), "list", "--all", "--json"], { env, encoding: "utf8" });
        assert.equal(done.status, 0, done.stderr);
        return JSON.parse(done.stdout)[0].messageCount;
      };
      assert.equal(count(), 2);
      appendFileSync(file, jsonl(userEntry("u2", "a1", "second question"), assistantEntry("a2", "u2", "second answer")));
      // The last full check ten minutes ago, as the catalog's file keeps it.
      const foldersFile = join(cache, "pi-session", "folders-v1.json");
      const snapshot = JSON.parse(readFileSync(foldersFile, "utf8"));
      const stale = Date.now() - 10 * MINUTE;
      for (const key of Object.keys(snapshot.fullChecks)) snapshot.fullChecks[key] = stale;
      writeFileSync(foldersFile, JSON.stringify(snapshot));
      const mark = join(cache, "pi-session", "full-check-running");
      if (!again) {
        // Deno: no background run; the full check is made at once, as before.
        assert.equal(count(), 4);
        assert.equal(existsSync(mark), false);
        return;
      }
      assert.equal(count(), 2, "answered by the quick check");
      // The background run ends: its mark gone, its full check recorded.
      const deadline = Date.now() + 60_000;
      const recorded = () => Object.values(JSON.parse(readFileSync(foldersFile, "utf8")).fullChecks as Record<string, number>).every((at) => at > stale);
      while ((existsSync(mark) || !recorded()) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
      assert.equal(existsSync(mark), false, "the background run removed its mark");
      assert.ok(recorded(), "the background run recorded its full check");
      assert.ok(statSync(foldersFile).mtimeMs > stale);
      assert.equal(count(), 4);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
