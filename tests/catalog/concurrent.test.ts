/**
 * Two processes indexing the same sessions into the same cache at the same time (file store:
 * lock and atomic rename; SQLite: transactions) leave a cache that loads cleanly and holds
 * exactly what one process alone would have written.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { Catalog } from "../../src/catalog/catalog.ts";
import { allSessionFilesIn } from "../../src/catalog/list-cached.ts";
import { openCatalog } from "../../src/catalog/open-catalog.ts";
import { recordState } from "../../src/catalog/store.ts";
import type { DigestKind } from "../../src/core/digest/digester.ts";
import { filesDigest } from "../../src/core/digest/files-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sqliteBinding } from "./_helpers.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-concurrent-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
await generateSessions({ dir: agentDir, count: 60, seed: 99 });
const binding = await sqliteBinding();
const WORKER = fileURLToPath(new URL("./_index-worker.ts", import.meta.url));

/** This runtime's command line for running a TypeScript file. */
function command(script: string): [string, string[]] {
  const g = globalThis as { Bun?: unknown; Deno?: { execPath(): string } };
  if (g.Bun) return [process.execPath, [script]];
  if (g.Deno) return [g.Deno.execPath(), ["run", "-A", script]];
  return [process.execPath, ["--import", "tsx", script]];
}

function worker(cacheDir: string, mode: string): Promise<{ code: number | null; out: string; err: string }> {
  const [cmd, args] = command(WORKER);
  return new Promise((resolve) => {
    const child = spawn(cmd, [...args, agentDir, cacheDir, mode], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

async function check(mode: string): Promise<void> {
  const cacheDir = join(work, `cache-${mode}`);
  const results = await Promise.all([worker(cacheDir, mode), worker(cacheDir, mode)]);
  for (const r of results) {
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out.trim().split("\n").pop()!).notes, []);
  }
  const fs = detectFileSystem();
  const scope = await allSessionFilesIn(fs, { agentDir });
  const kinds = [listingDigest, usageDigest, filesDigest] as DigestKind<unknown, unknown>[];
  const expected = await new Catalog(fs).refresh(kinds, scope.files);
  const notes: string[] = [];
  const catalog = await openCatalog({ fs, cacheDir, mode: mode as "file" | "sqlite", realDisk: true, note: (m) => notes.push(m) });
  assert.equal(catalog.store?.kind.startsWith(mode === "file" ? "file" : "sqlite"), true);
  const view = await catalog.refresh(kinds, scope.files);
  catalog.close();
  assert.deepEqual(notes, []);
  assert.equal(view.counts.unchanged, scope.files.length, "the cache was complete: nothing had to be read");
  for (const kind of kinds) {
    for (const [path, record] of expected.records(kind)) assert.deepEqual(recordState(view.records(kind).get(path)!), recordState(record), `${kind.name} ${path}`);
  }
}

test("two processes indexing at once into the file catalog", { timeout: 120_000 }, () => check("file"));

test(`two processes indexing at once into the SQLite catalog (${"driver" in binding ? binding.driver : "no SQLite"})`, { timeout: 120_000, skip: "skip" in binding ? binding.skip : false }, () => check("sqlite"));
