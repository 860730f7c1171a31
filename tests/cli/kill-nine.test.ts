/**
 * kill -9 at random moments (a fixed seed) of real `fork`, `clone`, `migrate`, `name` and
 * `export` processes on a session of a few MB. After each kill every file is absent or whole
 * (sessions pass `check`, a backup is the original, the source keeps every byte), the next
 * write succeeds at once (a dead holder's lock is broken, not waited out), and after it no lock
 * or temp file is left. Prints the counts the README's reliability section quotes.
 * @module
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { mulberry32 } from "../../scripts/seeded-random.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { assistantEntry, header, jsonl, runCli, userEntry } from "./_harness.ts";

/** A fixed seed and a bounded loop for CI; `KILL_SEED` and `KILLS` in the environment try others. */
const SEED = Number(process.env.KILL_SEED ?? 16);
const KILLS = Number(process.env.KILLS ?? 30);
const MAIN = new URL("../../src/cli/main.ts", import.meta.url).pathname;

/** The CLI under the runtime running this test. */
function cliCommand(): string[] {
  const g = globalThis as { Bun?: unknown; Deno?: { execPath(): string } };
  if (g.Bun !== undefined) return [process.execPath, MAIN];
  if (g.Deno !== undefined) return [g.Deno.execPath(), "run", "-A", "--no-check", MAIN];
  return [process.execPath, "--import", "tsx", MAIN];
}

const root = mkdtempSync(join(tmpdir(), "pi-session-kill-"));
const agentDir = join(root, "agent");
const sessions = join(root, "s");
const source = join(sessions, "2025-06-01T10-00-00-000Z_src-1.jsonl");
const v1 = join(sessions, "2024-01-01T00-00-00-000Z_legacy-1.jsonl");
const env = { PI_CODING_AGENT_DIR: agentDir };

/** A few MB, so that writing the copy takes a while next to starting up. */
const SOURCE = jsonl(
  header("src-1", "/work/proj"),
  ...Array.from({ length: 2000 }, (_, i) => [userEntry(`u${i}`, i === 0 ? null : `a${i - 1}`, `question ${i} `.repeat(60)), assistantEntry(`a${i}`, `u${i}`, `answer ${i} `.repeat(60))]).flat(),
);
const V1 = [
  `{"type":"session","id":"legacy-1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj"}`,
  ...Array.from({ length: 6000 }, (_, i) => `{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"${"old words ".repeat(60)}","timestamp":${i}}}`),
].join("\n") + "\n";

const COMMANDS = [
  ["fork", source, "--at", "a1500"],
  ["clone", source],
  ["migrate", v1],
  ["name", source, "renamed"],
  ["export", source, "-o", join(root, "out.html")],
];

/** Every file and folder under `dir`, relative. */
function tree(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const name = prefix + entry.name;
    return entry.isDirectory() ? [name + "/", ...tree(join(dir, entry.name), name + "/")] : [name];
  });
}

function reset(): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(sessions, { recursive: true });
  writeFileSync(source, SOURCE);
  writeFileSync(v1, V1);
}

/** When to kill: so many ms after the start, or after a lock first shows (the write has begun), or never. */
type KillAt = { afterStartMs: number } | { afterLockMs: number } | undefined;

/** Runs the CLI as a real process, killed with SIGKILL as `at` says; its running time. */
function runProcess(argv: string[], at?: KillAt): Promise<{ ms: number; killed: boolean; code: number | null }> {
  const [cmd, ...args] = cliCommand();
  const started = performance.now();
  const child = spawn(cmd!, [...args, ...argv], { env: { ...process.env, ...env, NO_COLOR: "1" }, stdio: "ignore" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  const kill = () => child.kill("SIGKILL");
  if (at !== undefined && "afterStartMs" in at) timer = setTimeout(kill, at.afterStartMs);
  if (at !== undefined && "afterLockMs" in at) {
    poll = setInterval(() => {
      if (![root, sessions].some((dir) => readdirSync(dir).some((name) => name.endsWith(".lock")))) return;
      clearInterval(poll);
      timer = setTimeout(kill, at.afterLockMs);
    }, 1);
  }
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ ms: performance.now() - started, killed: signal === "SIGKILL", code });
    });
  });
}

const fs = detectFileSystem();
/** Runs the CLI in this process, as a new process would (a fresh file system object: nothing swept yet). */
const inProcess = (argv: string[]) => runCli(argv, { fs: { ...fs }, home: root, env });
const totals = { runs: 0, kills: 0, locksLeft: 0, tempsLeft: 0, bytesLost: 0 };

describe("kill -9 during writes", () => {
  after(() => {
    rmSync(root, { recursive: true, force: true });
    console.log(`kill -9 (seed ${SEED}): ${totals.runs} runs, ${totals.kills} killed, ${totals.locksLeft} left a lock and ${totals.tempsLeft} a temp file behind (all cleared by the next run), ${totals.bytesLost} bytes lost`);
  });

  it("every file is absent or whole after a kill, and the next write succeeds at once and clears what was left", { timeout: 600_000 }, async () => {
    const random = mulberry32(SEED);
    // How long each command takes unkilled, so kill moments spread over its whole run.
    const duration: number[] = [];
    for (const argv of COMMANDS) {
      reset();
      const { ms, code } = await runProcess(argv);
      assert.equal(code, 0, `${argv[0]} failed unkilled`);
      duration.push(ms);
    }
    for (let i = 0; i < KILLS; i++) {
      const which = Math.floor(i / 2) % COMMANDS.length;
      const argv = COMMANDS[which]!;
      reset();
      const before = new Set(tree(root));
      // Most of a run is starting up and reading: every other kill waits for the lock, so that
      // it lands while the run writes.
      const at = i % 2 === 0 ? { afterStartMs: Math.floor(random() * duration[which]! * 1.05) } : { afterLockMs: Math.floor(random() * 40) };
      const { killed } = await runProcess(argv, at);
      totals.runs++;
      if (killed) totals.kills++;
      const left = tree(root).filter((name) => !before.has(name));
      if (left.some((name) => name.endsWith(".lock/"))) totals.locksLeft++;
      if (left.some((name) => name.endsWith(".tmp"))) totals.tempsLeft++;
      const what = `kill ${i} (${argv[0]})`;

      // Nothing lost: the source keeps every byte; a migrated file or its backup holds the original.
      const sourceNow = readFileSync(source, "latin1");
      const v1Now = readFileSync(v1, "latin1");
      const backups = left.filter((name) => /\.v1\.bak(\.\d+)?$/.test(name));
      const lost = (sourceNow.startsWith(SOURCE) ? 0 : SOURCE.length) + (v1Now === V1 || backups.some((b) => readFileSync(join(root, b), "latin1") === V1) ? 0 : V1.length);
      totals.bytesLost += lost;
      assert.equal(lost, 0, `${what}: bytes lost`);
      for (const backup of backups) assert.equal(readFileSync(join(root, backup), "latin1"), V1, `${what}: partial backup ${backup}`);

      // Every session file there is whole.
      for (const name of [...tree(root)].filter((n) => n.endsWith(".jsonl") && !n.includes(".tmp"))) {
        const checked = await inProcess(["check", join(root, name)]);
        assert.equal(checked.code, 0, `${what}: ${name} fails check: ${checked.stdout}${checked.stderr}`);
      }
      assert.ok(!left.includes("out.html") || readFileSync(join(root, "out.html"), "utf8").trimEnd().endsWith("</html>"), `${what}: partial export`);

      // The next write is not blocked, and leaves no lock or temp file.
      const next = await inProcess(argv[0] === "export" ? ["export", source, "-o", join(root, "out.html"), "--force"] : argv);
      totals.runs++;
      assert.equal(next.code, 0, `${what}, next run: ${next.stderr}`);
      if (argv[0] === "migrate") {
        // A file the killed run had already migrated is skipped, lock untouched: the next write to it clears that.
        const write = await inProcess(["name", v1, "after"]);
        assert.equal(write.code, 0, `${what}, a write after: ${write.stderr}`);
      }
      const after = tree(root);
      assert.deepEqual(after.filter((name) => name.endsWith(".tmp") || name.includes(".lock")), [], `${what}: left over after the next run`);
    }
  });
});
