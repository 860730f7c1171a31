/**
 * `index` killed with SIGKILL part way (a real process, once its catalog holds some sessions)
 * keeps what it had saved: the next `index` reads only the other files, and the catalog it
 * ends with is the one an uninterrupted `index` makes. (The file store everywhere, so that the
 * catalog can be watched from here; tests/catalog/walk.test.ts cuts a refresh short in-process,
 * SQLite included.)
 * @module
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { assistantEntry, header, jsonl, userEntry } from "./_harness.ts";

const MAIN = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const FILES = 1200;

/** The CLI under the runtime running this test. */
function cliCommand(): string[] {
  const g = globalThis as { Bun?: unknown; Deno?: { execPath(): string } };
  if (g.Bun !== undefined) return [process.execPath, MAIN];
  if (g.Deno !== undefined) return [g.Deno.execPath(), "run", "-A", "--no-check", MAIN];
  return [process.execPath, "--import", "tsx", MAIN];
}

/** The record lines of each of the file catalog's `sections` (its first line is the format line), sorted (a merge may order them differently). */
function catalogContents(cache: string, sections: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(sections.map((name) => {
    const path = join(cache, "pi-session", name);
    return [name, existsSync(path) ? readFileSync(path, "utf8").split("\n").slice(1).filter(Boolean).sort() : []];
  }));
}

/** Sessions saved in every section: they are saved one section after the other. */
function saved(cache: string, sections: readonly string[]): number {
  return Math.min(...Object.values(catalogContents(cache, sections)).map((lines) => lines.length));
}

/**
 * Runs `index` over `agentDir` with its file catalog in `cache`; with `killWhen`, SIGKILLs it as
 * soon as every one of its sections holds a session. Resolves with its stdout and how it ended.
 */
function index(agentDir: string, cache: string, killWhen?: readonly string[]): Promise<{ stdout: string; killed: boolean; code: number | null }> {
  const [cmd, ...args] = cliCommand();
  const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: cache, PI_SESSION_CATALOG: "file", NO_COLOR: "1" };
  const child = spawn(cmd!, [...args, "index", "--json"], { env, stdio: ["ignore", "pipe", "ignore"] });
  let stdout = "";
  child.stdout.on("data", (d) => void (stdout += String(d)));
  const poll = killWhen === undefined ? undefined : setInterval(() => {
    if (saved(cache, killWhen) > 0) child.kill("SIGKILL");
  }, 5);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearInterval(poll);
      resolve({ stdout, killed: signal === "SIGKILL", code });
    });
  });
}

test("index killed with SIGKILL part way: the next index reads only the files not saved, and the catalog equals an uninterrupted one's", { timeout: 300_000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), "pi-session-index-resume-"));
  try {
    const agentDir = join(root, "agent");
    for (let p = 0; p < 4; p++) {
      const dir = join(agentDir, "sessions", `--work-p${p}--`);
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < FILES / 4; i++) {
        const id = `s${p}-${String(i).padStart(3, "0")}`;
        const turns = Array.from({ length: 40 }, (_, t) => [
          userEntry(`u${t}`, t === 0 ? null : `a${t - 1}`, `question ${t} of ${id} about src/file${t}.ts `.repeat(8)),
          assistantEntry(`a${t}`, `u${t}`, `answer ${t} `.repeat(30)),
        ]).flat();
        writeFileSync(join(dir, `2025-06-01T10-00-00-000Z_${id}.jsonl`), jsonl(header(id, `/work/p${p}`), ...turns));
      }
    }
    const whole = join(root, "cache-whole");
    const first = await index(agentDir, whole);
    assert.equal(first.code, 0);
    assert.equal(JSON.parse(first.stdout).counts.read, FILES);

    const cut = join(root, "cache-cut");
    const sections = readdirSync(join(whole, "pi-session")).filter((name) => name.endsWith(".jsonl"));
    const killed = await index(agentDir, cut, sections);
    const kept = saved(cut, sections);
    // It saves at least every second: a machine that indexes all of them within one saves only at
    // the end (and may have ended before the kill reached it).
    if (kept === FILES) return t.skip(`index ended before its first save (all ${FILES} files within a second): nothing to resume`);
    assert.ok(killed.killed, "index was killed before it ended (the catalog had sessions before the end)");
    assert.ok(kept > 0, `the killed index had saved ${kept} of ${FILES} sessions`);

    const again = await index(agentDir, cut);
    assert.equal(again.code, 0);
    const { counts } = JSON.parse(again.stdout);
    assert.equal(counts.unchanged, kept, "every session saved before the kill is taken as it is");
    assert.equal(counts.read, FILES - kept, "only the others are read");
    assert.deepEqual(catalogContents(cut, sections), catalogContents(whole, sections));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
