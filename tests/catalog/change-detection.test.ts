/**
 * The catalog notices every way a session file can change, and reads no more than it must:
 * appends read the new tail only; a rewrite, truncation, replacement or rename is read again;
 * a touch reads only the two fingerprint windows; a deleted file leaves the catalog.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Catalog } from "../../src/catalog/catalog.ts";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { HEAD_BYTES, recordState, TAIL_BYTES } from "../../src/catalog/store.ts";
import type { DigestKind } from "../../src/core/digest/digester.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { rowCount } from "../../src/core/digest/usage-state.ts";
import { filesDigest } from "../../src/core/digest/files-digest.ts";
import { CountingFileSystem, fullDigest, sessionText, tickingFs, utf8 } from "./_helpers.ts";

const DIR = "/sessions/--work-p--";
const A = `${DIR}/a.jsonl`;
const B = `${DIR}/b.jsonl`;
const KINDS = [listingDigest, usageDigest, filesDigest] as DigestKind<unknown, unknown>[];

async function setup() {
  const memory = tickingFs();
  const fs = new CountingFileSystem(memory);
  await fs.mkdir(DIR, { recursive: true });
  await fs.writeAtomic(A, utf8(sessionText("a", 20)));
  await fs.writeAtomic(B, utf8(sessionText("b", 3)));
  // A new catalog per refresh, over the same store: as separate runs of the CLI would be.
  const refresh = async (files = [A, B]) => {
    const catalog = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") });
    fs.reset();
    const view = await catalog.refresh(KINDS, files, { listedDirs: [DIR] });
    const read = fs.byPath.get(A) ?? 0;
    return { view, read };
  };
  /** Every section's record for `path` equals a fresh full read of the file now. */
  const assertFresh = async (view: Awaited<ReturnType<typeof refresh>>["view"], path: string) => {
    const bytes = await read(memory, path);
    for (const kind of KINDS) {
      const full = fullDigest(kind, bytes);
      const record = view.records(kind).get(path)!;
      assert.deepEqual(recordState(record), full.final ?? full.state, `${kind.name} of ${path}`);
      assert.equal(record.end, full.end);
    }
  };
  return { fs, memory, refresh, assertFresh };
}

async function read(fs: { read: CountingFileSystem["read"] }, path: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of fs.read(path)) parts.push(chunk);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

test("catalog: a cold refresh reads each file once; a warm one reads nothing", async () => {
  const { fs, refresh, assertFresh } = await setup();
  const size = (await fs.stat(A))!.size;
  const cold = await refresh();
  assert.equal(cold.read, size);
  assert.equal(cold.view.counts.read, 2);
  await assertFresh(cold.view, A);
  const warm = await refresh();
  assert.equal(warm.view.counts.unchanged, 2);
  assert.equal((fs.byPath.get(A) ?? 0) + (fs.byPath.get(B) ?? 0), 0, "only the catalog itself is read");
});

test("catalog: an append reads only the new tail (and the two fingerprint windows)", async () => {
  const { fs, refresh, assertFresh } = await setup();
  await refresh();
  const added = utf8(sessionText("a", 2, { from: 20 }));
  await fs.append(A, added);
  const { view, read } = await refresh();
  assert.equal(view.counts.appended, 1);
  assert.equal(read, added.length + HEAD_BYTES + TAIL_BYTES);
  await assertFresh(view, A);
  assert.equal(rowCount(recordState(view.records(usageDigest).get(A)!).data), 22);
});

test("catalog: an append after a torn last line is read from the start of that line", async () => {
  const { fs, refresh, assertFresh } = await setup();
  await fs.append(A, utf8('{"type":"message","id":"torn","parentId":null,"timestamp":"2025-06-01T12:00:00.000Z","message":{"role":"us'));
  const first = await refresh();
  await assertFresh(first.view, A);
  // pi ends the torn line before appending; a careless writer just appends.
  await fs.append(A, utf8("\n" + sessionText("a", 1, { from: 30 })));
  await assertFresh((await refresh()).view, A);
  await fs.append(A, utf8('er","content":"x"}}'));
  const joined = await refresh();
  await assertFresh(joined.view, A);
  assert.ok(joined.read < 2 * (HEAD_BYTES + TAIL_BYTES) + 2000, `read ${joined.read} bytes`);
});

test("catalog: a last line without a newline counts, and counts once when completed", async () => {
  const { fs, refresh, assertFresh } = await setup();
  const text = sessionText("a", 21);
  await fs.writeAtomic(A, utf8(text.slice(0, -1)));
  const first = await refresh();
  await assertFresh(first.view, A);
  assert.equal(rowCount(recordState(first.view.records(usageDigest).get(A)!).data), 21);
  await fs.append(A, utf8("\n"));
  const second = await refresh();
  assert.equal(second.view.counts.appended, 1);
  await assertFresh(second.view, A);
  assert.equal(rowCount(recordState(second.view.records(usageDigest).get(A)!).data), 21);
});

test("catalog: a rewrite, a truncation or another session of the same size is read again", async () => {
  const { fs, refresh, assertFresh } = await setup();
  await refresh();
  // Same size, different bytes before the old end (a rewrite that kept the length).
  const original = sessionText("a", 20);
  await fs.writeAtomic(A, utf8(original.replace("question 19", "QUESTION 19")));
  let result = await refresh();
  assert.equal(result.view.counts.read, 1);
  await assertFresh(result.view, A);
  // Truncated.
  await fs.writeAtomic(A, utf8(sessionText("a", 10)));
  result = await refresh();
  assert.equal(result.view.counts.read, 1);
  await assertFresh(result.view, A);
  // Replaced by another session with the same size (only the header id differs).
  await fs.writeAtomic(A, utf8(sessionText("a", 10).replaceAll('"a', '"z').replaceAll(" a\"", ' z"')));
  result = await refresh();
  assert.equal(result.view.counts.read, 1);
  assert.equal(result.view.records(listingDigest).get(A)!.headerId, "z");
  await assertFresh(result.view, A);
});

test("catalog: touching a file without changing it reads only the fingerprint windows", async () => {
  const { fs, memory, refresh } = await setup();
  await refresh();
  const before = (await fs.stat(A))!;
  await fs.writeAtomic(A, await read(memory, A));
  assert.notEqual((await fs.stat(A))!.mtimeMs, before.mtimeMs);
  const { view, read: bytes } = await refresh();
  assert.equal(view.counts.touched, 1);
  assert.equal(bytes, HEAD_BYTES + TAIL_BYTES);
  assert.equal((await refresh()).read, 0, "the new mtime was saved");
});

test("catalog: deleted and renamed files leave the catalog; the new name is read", async () => {
  const { fs, refresh } = await setup();
  await refresh();
  await fs.remove(B);
  await fs.rename(A, `${DIR}/renamed.jsonl`);
  const { view } = await refresh([`${DIR}/renamed.jsonl`]);
  assert.equal(view.counts.removed, 2);
  assert.equal(view.counts.read, 1);
  assert.deepEqual([...view.records(listingDigest).keys()], [`${DIR}/renamed.jsonl`]);
  const stored = await new FileCatalogStore(fs, "/cache").load(listingDigest);
  assert.deepEqual([...stored.keys()], [`${DIR}/renamed.jsonl`]);
});

test("catalog: small files (under the fingerprint window) are simply read again", async () => {
  const { fs, refresh } = await setup();
  await refresh();
  await fs.append(B, utf8(sessionText("b", 1, { from: 3 })));
  const catalog = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") });
  const view = await catalog.refresh(KINDS, [B]);
  assert.equal((await fs.stat(B))!.size > HEAD_BYTES, true);
  assert.equal(view.counts.read + view.counts.appended, 1);
});

test("catalog: with pauseEveryMs a cold refresh lets timers run between files; without, only after", async () => {
  const memory = tickingFs();
  const files = Array.from({ length: 6 }, (_, i) => `${DIR}/s${i}.jsonl`);
  await memory.mkdir(DIR, { recursive: true });
  for (const [i, path] of files.entries()) await memory.writeAtomic(path, utf8(sessionText(`s${i}`, 3)));
  const readWhenTimerFired = async (pauseEveryMs?: number) => {
    let read = 0;
    let fired = -1;
    setTimeout(() => void (fired = read), 0);
    await new Catalog(memory).refresh(KINDS, files, { pauseEveryMs, onRecords: () => void read++ });
    await new Promise((resolve) => setTimeout(resolve, 0));
    return fired;
  };
  assert.equal(await readWhenTimerFired(), files.length, "without pauses the timer waits for the end");
  const fired = await readWhenTimerFired(0);
  assert.ok(fired >= 0 && fired < files.length, `with pauses the timer ran after ${fired} of ${files.length} files`);
});

/** A file store that can also load some paths, or list stamps, as the SQLite store can; it counts `loadPaths` calls. */
class PathLoadingStore extends FileCatalogStore {
  pathLoads: number[] = [];
  async loadPaths(section: Parameters<FileCatalogStore["load"]>[0], paths: readonly string[]) {
    this.pathLoads.push(paths.length);
    const all = await this.load(section);
    return new Map(paths.filter((path) => all.has(path)).map((path) => [path, all.get(path)!]));
  }
  async loadStamps(section: Parameters<FileCatalogStore["load"]>[0]) {
    return new Map([...(await this.load(section))].map(([path, r]) => [path, { size: r.size, mtimeMs: r.mtimeMs }]));
  }
}

async function manySessions(count: number) {
  const memory = tickingFs();
  const files = Array.from({ length: count }, (_, i) => `${DIR}/s${String(i).padStart(3, "0")}.jsonl`);
  await memory.mkdir(DIR, { recursive: true });
  for (const [i, path] of files.entries()) await memory.writeAtomic(path, utf8(sessionText(`s${i}`, 1)));
  const store = new PathLoadingStore(memory, "/cache");
  await new Catalog(memory, { store }).refresh(KINDS, files, { listedDirs: [DIR] });
  store.pathLoads = [];
  return { memory, files, store };
}

test("catalog: a partial refresh that pauses loads stored records a slice at a time, with timers running between", async () => {
  const { memory, files, store } = await manySessions(250);
  let fired = false;
  setTimeout(() => void (fired = true), 0);
  const view = await new Catalog(memory, { store }).refresh([listingDigest], files, { partial: true, pauseEveryMs: 0 });
  assert.deepEqual(store.pathLoads, [100, 100, 50]);
  assert.equal(fired, true, "a timer ran during the load");
  assert.equal(view.counts.unchanged, files.length);
  store.pathLoads = [];
  await new Catalog(memory, { store }).refresh([listingDigest], files, { partial: true });
  assert.deepEqual(store.pathLoads, [250], "without pauses: one load");
});

test("catalog: a partial refresh with listedDirs drops the records of files gone from them, loaded or not", async () => {
  const { memory, files, store } = await manySessions(5);
  await memory.remove(files[1]);
  await memory.remove(files[3]);
  const left = [files[0], files[2], files[4]];
  const view = await new Catalog(memory, { store }).refresh([listingDigest], left, { partial: true, listedDirs: [DIR] });
  assert.equal(view.counts.removed, 2);
  assert.deepEqual([...(await store.load(listingDigest)).keys()].sort(), left);
  const other = await new Catalog(memory, { store }).refresh([usageDigest], [files[0]], { partial: true });
  assert.equal(other.counts.removed, 0, "without listedDirs only files asked for can be dropped");
  assert.equal((await store.load(usageDigest)).size, 5);
});

test("catalog: an aborted signal stops a refresh that pauses at its next pause", async () => {
  const { memory, files, store } = await manySessions(3);
  const aborter = new AbortController();
  aborter.abort();
  await assert.rejects(new Catalog(memory, { store }).refresh([listingDigest], files, { partial: true, pauseEveryMs: 0, signal: aborter.signal }), { name: "AbortError" });
  const view = await new Catalog(memory, { store }).refresh([listingDigest], files, { partial: true, signal: aborter.signal });
  assert.equal(view.counts.unchanged, 3, "without pauses the signal is never checked");
});
