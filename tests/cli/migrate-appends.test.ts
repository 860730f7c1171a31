/**
 * `migrate` while pi appends (issue 16, defects 1 and 11): a line appended at any moment of the
 * run is in the migrated file exactly once, with real processes too; a symbolic link is
 * followed, never replaced.
 * @module
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { lstat, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { InjectingFileSystem } from "../io/_injecting-file-system.ts";
import { readText, runCli, sessionDir, writeText } from "./_harness.ts";

/** A version 1 file of `count` user messages (ids are added by the migration). */
function v1File(count: number, pad = 0): string {
  const lines = [`{"type":"session","id":"legacy-1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj"}`];
  for (let i = 0; i < count; i++) {
    lines.push(JSON.stringify({ type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: { role: "user", content: `old-${i} ${"x".repeat(pad)}`, timestamp: i } }));
  }
  return lines.join("\n") + "\n";
}

/** A line as an old pi appends it to a version 1 file. */
const piLine = (n: number) => JSON.stringify({ type: "message", timestamp: "2024-01-01T01:00:00.000Z", message: { role: "user", content: `pi-${n}`, timestamp: n } }) + "\n";

/** How often each `pi-<n>` (or `<prefix>-<n>`) appears in `text`, by n. */
function counts(text: string, prefix = "pi"): Map<number, number> {
  const found = new Map<number, number>();
  for (const match of text.matchAll(new RegExp(`"content":"${prefix}-(\\d+)[" ]`, "g"))) found.set(Number(match[1]), (found.get(Number(match[1])) ?? 0) + 1);
  return found;
}

/** The id the migration gives the first entry of `content` (ids are derived, so every run agrees). */
async function firstEntryId(content: string): Promise<string> {
  const probe = new MemoryFileSystem();
  await writeText(probe, FILE, content);
  await runCli(["migrate", FILE, "--no-backup"], { fs: probe });
  return JSON.parse((await readText(probe, FILE)).split("\n")[1]).id;
}

const DIR = sessionDir();
const FILE = `${DIR}/2024-01-01T00-00-00-000Z_legacy-1.jsonl`;
const encoder = new TextEncoder();

describe("migrate while pi appends", () => {
  it("migrate keeps a line pi appends at any point of its run exactly once, and says when it carried lines over", { timeout: 120_000 }, async () => {
    const content = v1File(40, 30_000); // ~1.2 MB: the new file is written in two chunks
    const fresh = async () => {
      const memory = new MemoryFileSystem();
      await writeText(memory, FILE, content);
      return memory;
    };
    const clean = new InjectingFileSystem(await fresh(), FILE, async () => {});
    assert.equal((await runCli(["migrate", FILE], { fs: clean })).code, 0);
    assert.ok(clean.points > 15, `only ${clean.points} points`);
    let carried = 0;
    for (let at = 0; at < clean.points; at++) {
      const memory = await fresh();
      const fs = new InjectingFileSystem(memory, FILE, async (point) => {
        if (point === at) await memory.append(FILE, encoder.encode(piLine(at)));
      });
      const r = await runCli(["migrate", FILE, "--json"], { fs });
      assert.equal(r.code, 0, `point ${at}: ${r.stderr}`);
      const [result] = JSON.parse(r.stdout);
      assert.equal(result.action, "migrated");
      assert.deepEqual([...counts(await readText(memory, FILE))], [[at, 1]], `line appended at point ${at}`);
      if (result.carriedLines) {
        carried++;
        assert.equal(result.carriedLines, 1);
        assert.equal(result.message, "carried over 1 line appended while it ran, 1 of them in the old format, migrated like the rest");
        const check = await runCli(["check", FILE], { fs: memory });
        assert.equal(check.code, 0, `point ${at}: ${check.stdout}`);
      }
    }
    assert.ok(carried > 0, "some lines came in while the new file was being written");
  });

  it("migrate keeps a carried-over line that has an id as written", { timeout: 120_000 }, async () => {
    const entry = `{"type":"custom","customType":"x","id":"late0001","parentId":null,"timestamp":"2024-01-01T01:00:00.000Z"}\n`;
    let carried = 0;
    for (let at = 0; at < 40 && carried === 0; at++) {
      const memory = new MemoryFileSystem();
      await writeText(memory, FILE, v1File(40, 30_000));
      const fs = new InjectingFileSystem(memory, FILE, async (point) => {
        if (point === at) await memory.append(FILE, encoder.encode(entry));
      });
      const [result] = JSON.parse((await runCli(["migrate", FILE, "--json"], { fs })).stdout);
      if (!result.carriedLines) continue;
      carried++;
      assert.equal(result.message, "carried over 1 line appended while it ran, as written");
      assert.ok((await readText(memory, FILE)).endsWith(entry));
    }
    assert.equal(carried, 1, "a point where the line was carried over");
  });

  it("label on an old-format file keeps a line pi appends at any point of its rewrite exactly once, or refuses and changes nothing", { timeout: 120_000 }, async () => {
    const content = v1File(40, 30_000);
    const fresh = async () => {
      const memory = new MemoryFileSystem();
      await writeText(memory, FILE, content);
      return memory;
    };
    const target = await firstEntryId(content);
    const clean = new InjectingFileSystem(await fresh(), FILE, async () => {});
    assert.equal((await runCli(["label", FILE, target, "mark"], { fs: clean })).code, 0);
    const outcomes = new Set<number>();
    for (let at = 0; at < clean.points; at++) {
      const memory = await fresh();
      const fs = new InjectingFileSystem(memory, FILE, async (point) => {
        if (point === at) await memory.append(FILE, encoder.encode(piLine(at)));
      });
      const r = await runCli(["label", FILE, target, "mark"], { fs });
      outcomes.add(r.code);
      const after = await readText(memory, FILE);
      assert.deepEqual([...counts(after)], [[at, 1]], `line appended at point ${at}`);
      if (r.code === 0) assert.match(after, /"type":"label"/);
      else {
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /changed on disk since it was opened/);
        assert.equal(after, content + piLine(at), "a refusal changes nothing");
      }
    }
    assert.ok(outcomes.has(0));
  });

  it("migrate of a symbolic link rewrites its target and keeps the backup beside it", { timeout: 120_000 }, async () => {
    const fs = detectFileSystem();
    const root = await mkdtemp(join(tmpdir(), "pi-session-migrate-link-"));
    try {
      const target = join(root, "real", "old.jsonl");
      await writeText(fs, target, v1File(3));
      await symlink(target, join(root, "link.jsonl"));
      const r = await runCli(["migrate", join(root, "link.jsonl"), "--json"], { fs });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout)[0].backup, `${target}.v1.bak`);
      assert.ok((await lstat(join(root, "link.jsonl"))).isSymbolicLink(), "the link is still a link");
      assert.equal(await readlink(join(root, "link.jsonl")), target);
      assert.match(await readFile(target, "utf8"), /^\{"type":"session",[^\n]*"version":3\}\n/);
      assert.equal(await readFile(`${target}.v1.bak`, "utf8"), v1File(3));
      assert.deepEqual((await readdir(root)).sort(), ["link.jsonl", "real"]);
      assert.deepEqual((await readdir(join(root, "real"))).sort(), ["old.jsonl", "old.jsonl.v1.bak"]);
      const again = await runCli(["check", join(root, "link.jsonl")], { fs });
      assert.equal(again.code, 0, again.stdout + again.stderr);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("label through a symbolic link to an old-format file rewrites the target, keeps the link, and appends through it", { timeout: 120_000 }, async () => {
    const fs = detectFileSystem();
    const root = await mkdtemp(join(tmpdir(), "pi-session-label-link-"));
    try {
      const target = join(root, "real", "old.jsonl");
      const link = join(root, "link.jsonl");
      await writeText(fs, target, v1File(3));
      await symlink(target, link);
      const entryId = await firstEntryId(v1File(3));
      for (const label of ["one", "two"]) {
        const r = await runCli(["label", link, entryId, label], { fs });
        assert.equal(r.code, 0, r.stderr);
      }
      assert.ok((await lstat(link)).isSymbolicLink());
      assert.equal(await readFile(`${target}.v1.bak`, "utf8"), v1File(3));
      assert.deepEqual((await readdir(root)).sort(), ["link.jsonl", "real"]);
      const check = await runCli(["check", link], { fs });
      assert.equal(check.code, 0, check.stdout + check.stderr);
      assert.equal((await readFile(target, "utf8")).match(/"type":"label"/g)?.length, 2);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("migrate of a multi-MB file keeps every line another process appends meanwhile, in several runs", { timeout: 120_000 }, async () => {
    const fs = detectFileSystem();
    const root = await mkdtemp(join(tmpdir(), "pi-session-migrate-race-"));
    const worker = fileURLToPath(new URL("./_append-worker.mjs", import.meta.url));
    const content = v1File(20_000, 150); // ~4.6 MB
    try {
      for (let run = 0; run < 4; run++) {
        const path = join(root, `run-${run}.jsonl`);
        await writeFile(path, content);
        const child = appender(worker, path, `${path}.lock`, `r${run}`);
        await child.ready;
        const r = await runCli(["migrate", path, "--json"], { fs });
        const appended = await child.done;
        assert.equal(r.code, 0, r.stderr);
        const text = await readFile(path, "utf8");
        const found = counts(text, `r${run}`);
        for (let n = 0; n < appended; n++) assert.equal(found.get(n), 1, `run ${run}: line ${n} of ${appended} found ${found.get(n) ?? 0} times`);
        assert.equal(found.size, appended);
        assert.equal(counts(text, "old").size, 20_000);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

/** Starts the appending child; `ready` once it has appended its first lines, `done` with its count. */
function appender(script: string, file: string, lock: string, prefix: string): { ready: Promise<void>; done: Promise<number> } {
  const g = globalThis as { Deno?: { execPath(): string } };
  const [command, args] = g.Deno ? [g.Deno.execPath(), ["run", "-A", script]] : [process.execPath, [script]];
  const child = spawn(command, [...args, file, lock, prefix], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let signalReady: () => void;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout.on("data", (data) => {
    out += data;
    if (out.includes("ready\n")) signalReady();
  });
  child.stderr.on("data", (data) => (err += data));
  const done = new Promise<number>((resolve, reject) => {
    child.on("close", (code) => {
      signalReady();
      if (code !== 0) reject(new Error(`appender exited ${code}: ${err}`));
      else resolve(Number(out.trim().split("\n").pop()));
    });
  });
  return { ready, done };
}
