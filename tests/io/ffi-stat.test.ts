/**
 * The C library's stat through `bun:ffi` (src/io/_ffi-stat.ts) against the node adapter's stat:
 * the same size, mtime, type and mode for files, folders and links; a missing path and a long one
 * answered by the fallback. Elsewhere than Bun on Linux there is none. Bun's adapter sets it up only
 * after its first stats (`statThenFfi`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ffiStat } from "../../src/io/_ffi-stat.ts";
import { bunFileSystem, nodeFileSystem } from "../../src/io/mod.ts";
import { FOLDER_STAT_WEIGHT, statThenFfi } from "../../src/io/bun.ts";
import type { FileStat } from "../../src/io/file-system.ts";

const runtime = globalThis as { Bun?: unknown };
const where = runtime.Bun !== undefined && process.platform === "linux" && (process.arch === "x64" || process.arch === "arm64");

test("ffiStat() is there only under Bun on Linux x64 and arm64", () => {
  assert.equal(ffiStat(nodeFileSystem.statNow!) !== undefined, where);
});

test("ffiStat() gives what the node adapter's stat gives, and asks the fallback for what it cannot stat", { skip: !where }, () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-ffi-stat-"));
  try {
    const file = join(dir, "a session é.jsonl");
    writeFileSync(file, "x".repeat(12345));
    // A time with a fraction of a millisecond: the mtime must be the node adapter's to the last bit.
    utimesSync(file, 1_700_000_000.123456, 1_700_000_000.987654);
    const big = join(dir, "big.jsonl");
    writeFileSync(big, "");
    // Past 32 bits (sparse: no disk taken): the size's high half counts.
    truncateSync(big, 2 ** 32 + 12345);
    const link = join(dir, "link.jsonl");
    symlinkSync(file, link);
    const folder = join(dir, "folder.jsonl");
    mkdirSync(folder);
    const asked: string[] = [];
    const fallback = (path: string): FileStat | null => (asked.push(path), nodeFileSystem.statNow!(path));
    const stat = ffiStat(fallback)!;
    for (const path of [file, big, link, folder, dir]) assert.deepEqual(stat(path), nodeFileSystem.statNow!(path), path);
    assert.deepEqual(asked, []);
    const missing = join(dir, "gone.jsonl");
    assert.equal(stat(missing), null);
    // Longer than the buffer (and than the system takes): the node adapter's error.
    const long = join(dir, ...Array.from({ length: 30 }, () => "x".repeat(200)));
    assert.throws(() => stat(long), /too long/);
    assert.deepEqual(asked, [missing, long]);
    // Bun's file system stats through it.
    assert.deepEqual(bunFileSystem.statNow!(file), nodeFileSystem.statNow!(file));
    // A folder's stem and a name: the same answers, the stem changed or kept between calls.
    asked.length = 0;
    const stem = `${dir}/`;
    for (const name of ["a session é.jsonl", "big.jsonl", "link.jsonl", "a session é.jsonl", "folder.jsonl"]) {
      assert.deepEqual(stat.in(stem, name), nodeFileSystem.statNow!(stem + name), name);
    }
    assert.deepEqual(stat.in(`${folder}/`, "x"), null);
    assert.deepEqual(stat.in(stem, "big.jsonl"), nodeFileSystem.statNow!(big), "back to the first stem");
    assert.deepEqual(stat(file), nodeFileSystem.statNow!(file), "a whole path after a stem");
    assert.deepEqual(stat.in(stem, "big.jsonl"), nodeFileSystem.statNow!(big), "a stem after a whole path");
    assert.throws(() => stat.in(stem, "y".repeat(5000)), /too long/);
    assert.deepEqual(asked, [`${folder}/x`, stem + "y".repeat(5000)]);
    assert.deepEqual(bunFileSystem.statNowIn!(stem, "big.jsonl"), nodeFileSystem.statNow!(big));
    // Many names in one folder (opened once): the same answers, in their order, a stem after them too.
    asked.length = 0;
    const names = ["a session é.jsonl", "gone.jsonl", "big.jsonl", "link.jsonl", "folder.jsonl"];
    assert.deepEqual(stat.each(stem, names), names.map((name) => nodeFileSystem.statNow!(stem + name)));
    assert.deepEqual(asked, [`${stem}gone.jsonl`], "a name C's stat did not find goes to the fallback");
    assert.deepEqual(stat.in(stem, "big.jsonl"), nodeFileSystem.statNow!(big), "a stem after many names");
    assert.deepEqual(stat.each(`${dir}/nothing/`, ["a.jsonl", "b.jsonl"]), [null, null], "a folder that is not there");
    assert.deepEqual(stat.each(stem, []), []);
    assert.throws(() => stat.each(stem, ["big.jsonl", "y".repeat(5000)]), /too long/);
    assert.deepEqual(bunFileSystem.statNowEach!(stem, ["big.jsonl", "link.jsonl"]), [big, link].map((path) => nodeFileSystem.statNow!(path)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("statThenFfi() stats through the first stat until the call that sets up the fast one, once, and falls back for good without it", () => {
  const stat = (name: string) => (path: string): FileStat => ({ size: path.length, mtimeMs: 0, isFile: true, isDirectory: false, mode: 0o600, by: name }) as FileStat;
  let made = 0;
  const staged = statThenFfi(stat("first"), () => (made++, stat("fast")), 3);
  const by = (path: string) => (staged(path) as FileStat & { by: string }).by;
  assert.deepEqual([by("a"), by("b")], ["first", "first"]);
  assert.equal(made, 0);
  assert.deepEqual([by("c"), by("d"), by("e")], ["fast", "fast", "fast"]);
  assert.equal(made, 1);
  let tried = 0;
  const without = statThenFfi(stat("first"), () => (tried++, undefined), 2);
  assert.deepEqual(["a", "b", "c", "d"].map((path) => (without(path) as FileStat & { by: string }).by), ["first", "first", "first", "first"]);
  assert.equal(tried, 1);
});

test("statThenFfi() counts each name of a folder's stats as FOLDER_STAT_WEIGHT stats toward those before the fast one, which stats them all at once", () => {
  const stat = (name: string) => (path: string): FileStat => ({ size: path.length, mtimeMs: 0, isFile: true, isDirectory: false, mode: 0o600, by: name }) as FileStat;
  const fast = Object.assign(stat("fast"), { each: (stem: string, names: readonly string[]) => names.map((name) => ({ ...stat("each")(stem + name) })) });
  assert.ok(FOLDER_STAT_WEIGHT > 1);
  const staged = statThenFfi(stat("first"), () => fast, 3 * FOLDER_STAT_WEIGHT + 1);
  const by = (stats: (FileStat | null)[]) => stats.map((s) => (s as FileStat & { by: string }).by);
  assert.deepEqual(by(staged.each("/f/", ["a", "b", "c"])), ["first", "first", "first"]);
  assert.deepEqual(by(staged.each("/f/", ["d", "e"])), ["each", "each"], "the fourth name sets up the fast one");
  assert.deepEqual(staged.each("/f/", ["x"]).map((s) => s!.size), ["/f/x".length]);
});
