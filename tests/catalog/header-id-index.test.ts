/**
 * The catalog's index of header ids (src/catalog/header-id-index.ts): once a listing covers the
 * scope, the nearest stored ids of an id and the files whose id starts with a prefix come from
 * the SQLite index, and equal what comparing every session's header gives; files it cannot vouch
 * for (new, changed in place, without a usable header) are named to be read, and the stored ids of
 * files gone or changed are passed over. No answer before any coverage, nor when a full check is due.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import type { CheckMode } from "../../src/catalog/folder-check.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { collidingIds, pinnedStatFs, sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

const SESSIONS = "/agent/sessions";
const FOLDERS = ["--work-p--", "--work-q--", "--srv-app--"].map((name) => `${SESSIONS}/${name}`);
const DAY = 24 * 60 * 60 * 1000;

/** The nearest of `ids` below and above `id` (not `id` itself), by JavaScript's order (ASCII here). */
function around(ids: readonly string[], id: string): [string | undefined, string | undefined] {
  const sorted = [...new Set(ids)].sort();
  return [sorted.filter((other) => other < id).at(-1), sorted.find((other) => other > id)];
}

async function setup(t: { after(fn: () => void): void }) {
  let clock = Date.UTC(2026, 0, 1);
  const memory = new MemoryFileSystem({ clock: () => clock });
  for (const dir of FOLDERS) await memory.mkdir(dir, { recursive: true });
  const ids = collidingIds(60, 11);
  const paths = new Map<string, string>();
  for (const [i, id] of ids.entries()) {
    const path = `${FOLDERS[i % FOLDERS.length]}/2026-01-01T00-00-00-000Z_${id}.jsonl`;
    await memory.writeAtomic(path, utf8(sessionText(id, 1)));
    paths.set(id, path);
  }
  // Not a session header, and a file deeper than a project's folder: neither is a session of the scope.
  await memory.writeAtomic(`${FOLDERS[1]}/notes.jsonl`, utf8('{"hello":"world"}\n'));
  await memory.mkdir(`${FOLDERS[2]}/old`, { recursive: true });
  await memory.writeAtomic(`${FOLDERS[2]}/old/0190abzz.jsonl`, utf8(sessionText("0190abzz", 1)));
  clock += 2 * DAY;
  // Folders whose mtime a test puts back after changing them (an edit in place that a quick check cannot see by folder).
  const pinned = new Map<string, number>();
  const fs = pinnedStatFs(memory, pinned);
  const work = mkdtempSync(join(tmpdir(), "pi-session-id-index-"));
  const store = await openSqliteStore(join(work, "catalog.sqlite"));
  t.after(() => {
    store.close();
    rmSync(work, { recursive: true, force: true });
  });
  const index = async (mode: CheckMode = "auto") => {
    const catalog = new Catalog(fs, { store, check: mode, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    return catalog.headerIdIndex(listingDigest, listing, [SESSIONS]);
  };
  const list = async (mode: CheckMode = "auto") => {
    const catalog = new Catalog(fs, { store, check: mode, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    assert.ok(await catalog.refreshRows(listingDigest, listing, SESSIONS));
  };
  /** The stored ids compared one by one, as a caller does where the index gives no answer. */
  const stored = async (mode: CheckMode = "auto") => {
    const catalog = new Catalog(fs, { store, check: mode, now: () => clock });
    const listing = await catalog.listFiles(SESSIONS, true);
    return catalog.storedHeaderIds(listingDigest, listing, [SESSIONS]);
  };
  /** Forgets every folder of the listing's coverage (as a trigger does when a record is added for a new path). */
  const uncover = async () => {
    const coverage = await store.loadCoverage!(listingDigest);
    assert.ok(await store.saveCoverage!(listingDigest, new Map(), [...coverage.folders.keys()], coverage.token));
  };
  const pin = async (dir: string) => pinned.set(dir, (await memory.stat(dir))!.mtimeMs);
  return { fs: memory, ids, paths, index, list, stored, uncover, pin, tick: (ms: number) => (clock += ms) };
}

test(`the index of header ids answers as every header would, once a listing covers the scope (${driver})`, { skip }, async (t) => {
  const { ids, paths, index, list, tick } = await setup(t);
  assert.equal(await index(), undefined, "nothing stored yet");
  await list("full");
  tick(1000);
  // By a full check (every file stat'ed) and by the quick one, the same answers.
  for (const mode of ["full", "auto"] as const) {
    const found = await index(mode);
    assert.ok(found, `a covered scope (${mode})`);
    // A file without a session header is read, as when every stored id is compared.
    assert.deepEqual(found.unread, [`${FOLDERS[1]}/notes.jsonl`]);
    const asked = [...ids, "0190ab", "0190abaaaaaaaa", "0190abbbbbbbbz", "0190abzz", "0190abzza", "0190ac"];
    for (const id of asked) assert.deepEqual(found.around(id), around(ids, id), id);
    // All at once (one read where the store can), the same; the session deeper than a project's folder passed over.
    assert.deepEqual(found.aroundEach(asked), asked.map((id) => around(ids, id)));
    for (const prefix of ["0190ab", "0190aba", "0190abba", "0190abbab", ids[7], ids[7] + "x", "0190abz", "z"]) {
      assert.deepEqual(found.withPrefix(prefix).sort(), ids.filter((id) => id.startsWith(prefix)).map((id) => paths.get(id)!).sort(), prefix);
    }
  }
});

test(`the index of header ids by a full check sees an older session rewritten in place that the quick check takes as stored (${driver})`, { skip }, async (t) => {
  const { fs, ids, paths, index, list, pin, tick } = await setup(t);
  await list("full");
  tick(1000);
  // Written two days ago, rewritten under another id while its folder's mtime stays.
  const old = ids[6];
  await pin(FOLDERS[6 % FOLDERS.length]);
  await fs.writeAtomic(paths.get(old)!, utf8(sessionText("0190abyyyyyyyy", 3)));
  tick(1000);
  const quick = await index();
  assert.ok(quick);
  assert.deepEqual(quick.withPrefix(old), [paths.get(old)!], "the quick check's documented exception");
  const full = await index("full");
  assert.ok(full);
  assert.deepEqual([...full.unread].sort(), [paths.get(old)!, `${FOLDERS[1]}/notes.jsonl`].sort());
  assert.deepEqual(full.withPrefix(old), []);
});

test(`the index of header ids names new, removed and rewritten sessions for what they are (${driver})`, { skip }, async (t) => {
  const { fs, ids, paths, index, list, pin, tick } = await setup(t);
  // One session written lately (the quick check stats such files), then all listed.
  const [gone, rewritten] = [ids[4], ids[5]];
  await fs.writeAtomic(paths.get(rewritten)!, utf8(sessionText(rewritten, 1)));
  // Listed a minute later: a folder changed in the same moment it is listed is not taken on trust.
  tick(60_000);
  await list("full");
  tick(1000);
  // A new session (its folder changes), one removed, and the recent one rewritten in place under
  // another id while its folder's mtime stays.
  const added = `${FOLDERS[0]}/2026-01-03T00-00-00-000Z_0190abnew.jsonl`;
  await fs.writeAtomic(added, utf8(sessionText("0190abnew", 1)));
  await fs.remove(paths.get(gone)!);
  await pin(FOLDERS[2]);
  await fs.writeAtomic(paths.get(rewritten)!, utf8(sessionText("0190abzzzzzzzz", 2)));
  const found = await index();
  assert.ok(found);
  assert.deepEqual([...found.unread].sort(), [added, paths.get(rewritten)!, `${FOLDERS[1]}/notes.jsonl`].sort());
  // What is stored of the files gone or changed is passed over: their ids are found by reading them.
  const current = ids.filter((id) => id !== gone && id !== rewritten);
  for (const id of ids) assert.deepEqual(found.around(id), around(current, id), id);
  assert.deepEqual(found.aroundEach(ids), ids.map((id) => around(current, id)), "all at once, past the files gone and changed");
  assert.deepEqual(found.withPrefix(gone), []);
  assert.deepEqual(found.withPrefix(rewritten), []);
  // Read again by a listing, the new and rewritten files are stored and nothing is left unread.
  await list();
  tick(1000);
  const after = await index();
  assert.ok(after);
  assert.deepEqual(after.unread, [`${FOLDERS[1]}/notes.jsonl`]);
  assert.deepEqual(after.withPrefix("0190abnew"), [added]);
  assert.deepEqual(after.withPrefix("0190abzzz"), [paths.get(rewritten)!]);
});

test(`stored ids compared one by one leave the scope covered again, so that the next run asks the index (${driver})`, { skip }, async (t) => {
  const { fs, ids, paths, index, list, stored, uncover, tick } = await setup(t);
  await list("full");
  tick(1000);
  await uncover();
  assert.equal(await index(), undefined, "no folder covered");
  for (const mode of ["auto", "full"] as const) {
    // Every stored id current: the comparison saves the coverage it proved.
    const byOne = await stored(mode);
    assert.ok(byOne);
    assert.equal(byOne.size, ids.length + 1, "every session and the headerless file");
    tick(1000);
    const found = await index(mode);
    assert.ok(found, `covered again after the comparison (${mode})`);
    for (const id of ids) assert.deepEqual(found.around(id), around(ids, id), id);
    assert.deepEqual(found.withPrefix(ids[3]), [paths.get(ids[3])!]);
    await uncover();
    tick(1000);
  }
  // A file with no stored record yet: nothing proved, nothing covered.
  await fs.writeAtomic(`${FOLDERS[0]}/2026-01-03T00-00-00-000Z_0190abnew.jsonl`, utf8(sessionText("0190abnew", 1)));
  tick(60_000);
  assert.equal((await stored("full"))?.size, ids.length + 1);
  assert.equal(await index("full"), undefined, "not covered while a file lacks its record");
});
