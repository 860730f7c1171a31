/**
 * `index` over a SQLite catalog (the real disk) notes each file skipped for a bad header, on
 * the run that reads it and on every run after that finds it unchanged, while the sections'
 * records of unchanged files stay unloaded (only the listing's give the header state).
 * @module
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { nodeFileSystem } from "../../src/io/node.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { header, jsonl, runCli, userEntry } from "./_harness.ts";

const binding = await sqliteBinding();
const noSqlite = "skip" in binding ? binding.skip : false;

test("index notes a file with a bad header on a SQLite catalog, when read and when unchanged", { skip: noSqlite }, async () => {
  const work = mkdtempSync(join(tmpdir(), "index-notes-"));
  try {
    const folder = join(work, "agent", "sessions", "--work-proj--");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "2025-06-01T10-00-00-000Z_good1111.jsonl"), jsonl(header("good1111"), userEntry("u1", null, "hello")));
    writeFileSync(join(folder, "no-id.jsonl"), jsonl({ type: "session", version: 3, timestamp: "2025-06-01T10:00:00.000Z", cwd: "/work/proj" }, userEntry("u1", null, "x")));
    const index = () => runCli(["--agent-dir", join(work, "agent"), "index"], { fs: nodeFileSystem, env: { XDG_CACHE_HOME: join(work, "cache") } });
    for (const expected of [/2 read/, /2 unchanged/]) {
      const run = await index();
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, expected);
      assert.match(run.stdout, /Catalog: sqlite/);
      const notes = run.stderr.split("\n").filter((line) => line.startsWith("pi-session: skipped"));
      assert.equal(notes.length, 1, run.stderr);
      assert.match(notes[0], /no-id\.jsonl: line 1 is a session header but it has no "id"/);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
