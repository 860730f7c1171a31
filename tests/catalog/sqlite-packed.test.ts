/**
 * A packed section's long states (the picker's message texts) are kept deflated by the SQLite store,
 * and come back exactly, by path, by paths and by row; a short one, another section's, and one
 * an older build wrote as text are kept and read as text. Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { CatalogRecord } from "../../src/catalog/store.ts";
import { messageTextsDigest } from "../../src/core/digest/listing-digest.ts";
import { openRawSqlite, sampleRecord, sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

const LONG = Array.from({ length: 4000 }, (_, i) => `word${i % 37} ü 日本 "quoted"`).join(" ");

function texts(path: string, n: number, text: string, final?: string): CatalogRecord {
  const record = sampleRecord(path, n);
  return { ...record, state: { ...record.state, data: { text } }, ...(final === undefined ? {} : { final: { ...record.state, data: { text: final } } }) };
}

test(`the SQLite store keeps a packed section's long states deflated and gives them back exactly (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-packed-"));
  const path = join(dir, "catalog.sqlite");
  try {
    const records = [texts("/s/a.jsonl", 1, LONG), texts("/s/b.jsonl", 2, "short"), texts("/s/c.jsonl", 3, "x", `${LONG} and more`)];
    const store = await openSqliteStore(path);
    try {
      await store.save(messageTextsDigest, { put: records, remove: [] });
      await store.save({ name: "listing", version: 2 }, { put: [texts("/s/a.jsonl", 1, LONG)], remove: [] });
      const byPath = (loaded: Map<string, CatalogRecord>) => [...loaded.values()].sort((x, y) => x.path.localeCompare(y.path));
      assert.deepEqual(byPath(await store.load(messageTextsDigest)), records);
      assert.deepEqual(byPath(await store.loadPaths!(messageTextsDigest, ["/s/c.jsonl", "/s/a.jsonl"])), [records[0], records[2]]);
    } finally {
      store.close();
    }
    const raw = await openRawSqlite(path);
    try {
      const rows = raw.prepare("SELECT r.rowid AS id, f.path, r.section, typeof(r.state) AS state, typeof(r.final) AS final, length(r.state) AS bytes FROM records r JOIN files f ON f.id = r.file ORDER BY r.section, f.path").all();
      assert.deepEqual(rows.map(({ path, section, state, final }) => [section, path, state, final]), [
        ["listing", "/s/a.jsonl", "text", "null"],
        ["message-texts", "/s/a.jsonl", "blob", "null"],
        ["message-texts", "/s/b.jsonl", "text", "null"],
        ["message-texts", "/s/c.jsonl", "text", "blob"],
      ]);
      assert.ok(Number(rows[1].bytes) * 4 < JSON.stringify(records[0].state).length, "deflated to under a fourth");
      // An older build's text state of the section is read as it is.
      raw.prepare("UPDATE records SET state = ? WHERE rowid = ?").run(JSON.stringify({ ...records[0].state, data: { text: "old" } }), rows[1].id as number);
      const store = await openSqliteStore(path);
      try {
        const old = (await store.load(messageTextsDigest)).get("/s/a.jsonl")!;
        assert.deepEqual(old.state.data, { text: "old" });
        // By row (as `stats` reads its section): the effective state's JSON, unpacked.
        const byRow = await store.loadRows!(messageTextsDigest, [Number(rows[3].id)]);
        assert.deepEqual(JSON.parse(byRow.get(Number(rows[3].id))!.text), records[2].final);
      } finally {
        store.close();
      }
    } finally {
      raw.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
