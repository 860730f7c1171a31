/**
 * Two processes running `label` and `name` on one session at the same time (issue 16, defect
 * 2): every entry is kept and the file stays one chain with a single leaf.
 * @module
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { it } from "node:test";
import { detectFileSystem } from "../../src/io/mod.ts";
import { assistantEntry, header, jsonl, runCli, userEntry, writeText } from "./_harness.ts";

const WORKER = fileURLToPath(new URL("./_label-worker.ts", import.meta.url));
const PER_PROCESS = 100;

/** This runtime's command line for running a TypeScript file. */
function command(script: string): [string, string[]] {
  const g = globalThis as { Bun?: unknown; Deno?: { execPath(): string } };
  if (g.Bun) return [process.execPath, [script]];
  if (g.Deno) return [g.Deno.execPath(), ["run", "-A", script]];
  return [process.execPath, ["--import", "tsx", script]];
}

function worker(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const [cmd, base] = command(WORKER);
  return new Promise((resolve) => {
    const child = spawn(cmd, [...base, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

it("label and name from two processes at once keep every entry in one chain", { timeout: 180_000 }, async () => {
  const root = await mkdtemp(join(tmpdir(), "pi-session-concurrent-append-"));
  try {
    const file = join(root, "s.jsonl");
    await writeText(detectFileSystem(), file, jsonl(header("conc"), userEntry("u1", null, "hi"), assistantEntry("a1", "u1", "hello")));
    const results = await Promise.all([worker(file, "u1", "p", String(PER_PROCESS)), worker(file, "u1", "q", String(PER_PROCESS))]);
    for (const r of results) assert.equal(r.code, 0, r.err + r.out);
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line));
    const entries = lines.slice(1);
    assert.equal(entries.length, 2 + 2 * PER_PROCESS, "every append is in the file");
    const values = entries.map((e) => e.label ?? e.name).filter((v) => v !== undefined);
    for (const prefix of ["p", "q"]) {
      for (let i = 0; i < PER_PROCESS; i++) assert.equal(values.filter((v) => v === `${prefix}-${i}`).length, 1, `${prefix}-${i}`);
    }
    const parents = new Set(entries.map((e) => e.parentId));
    const leaves = entries.filter((e) => !parents.has(e.id));
    assert.equal(leaves.length, 1, `one leaf, not ${leaves.length}`);
    for (let i = 1; i < entries.length; i++) assert.equal(entries[i].parentId, entries[i - 1].id, `line ${i + 2} hangs under the line before`);
    const check = await runCli(["check", file], { fs: detectFileSystem() });
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const info = await runCli(["info", file, "--json"], { fs: detectFileSystem() });
    assert.equal(info.code, 0, info.stderr);
    assert.equal(JSON.parse(info.stdout).name, values.filter((v) => /-\d*[13579]$/.test(v)).at(-1) ?? null);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
