/**
 * Tests for `safeRewrite`: a line another writer appends at any moment of the rewrite (before
 * it, between any two of its file operations, between the chunks of the temp write, on the old
 * file after the rename) ends up in the new file exactly once; the backup holds the original.
 * Memory file system with deterministic injection points, and the node adapter for links.
 * @module
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile, lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type FileSystem, FsError } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { countLines, type RewriteDecision } from "../../src/session/rewrite-steps.ts";
import { safeRewrite } from "../../src/session/safe-rewrite.ts";
import { InjectingFileSystem } from "../io/_injecting-file-system.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const FILE = "/s/a.jsonl";

/** A line another writer appends, told apart by its number. */
const line = (n: number) => `{"type":"custom","id":"pi-${n}","parentId":null,"timestamp":"t","customType":"x"}\n`;

/** An original of `count` lines, big enough (with `pad`) for a chunked temp write. */
function original(count: number, pad = 0): string {
  return Array.from({ length: count }, (_, i) => `{"n":${i},"pad":"${"x".repeat(pad)}"}\n`).join("");
}

/** Upper-cases the file: the new content differs from the old in every byte that is a letter. */
const upper = (bytes: Uint8Array): RewriteDecision<string> => ({
  kind: "write",
  bytes: encoder.encode(decoder.decode(bytes).toUpperCase()),
  detail: "upper",
  backupName: (n) => `${FILE}.bak${n === 1 ? "" : `.${n}`}`,
});

async function text(fs: FileSystem, path: string): Promise<string> {
  let all = "";
  for await (const chunk of fs.read(path)) all += decoder.decode(chunk, { stream: true });
  return all;
}

/** Runs one rewrite of a fresh file, calling `inject` at every point; returns the file system. */
async function rewriteWith(content: string, inject: (point: number, fs: MemoryFileSystem, oldName: string | undefined) => Promise<void>) {
  const memory = new MemoryFileSystem();
  await memory.mkdir("/s");
  await memory.append(FILE, encoder.encode(content));
  const fs = new InjectingFileSystem(memory, FILE, (point, oldName) => inject(point, memory, oldName));
  const outcome = await safeRewrite(fs, FILE, upper);
  return { memory, outcome, points: fs.points };
}

/** The appended lines found in `content`, by number, with how often each appears. */
function appendedCounts(content: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const match of content.matchAll(/"id":"pi-(\d+)"/g)) counts.set(Number(match[1]), (counts.get(Number(match[1])) ?? 0) + 1);
  return counts;
}

describe("safeRewrite", () => {
  it("safeRewrite() keeps a line appended at any one point of the rewrite, exactly once", { timeout: 120_000 }, async () => {
    const content = original(30, 60_000); // ~1.8 MB: the temp file is written in two chunks
    const { points: total } = await rewriteWith(content, async () => {});
    assert.ok(total > 10, `only ${total} injection points`);
    for (let at = 0; at < total; at++) {
      const { memory, outcome } = await rewriteWith(content, async (point, fs) => {
        if (point === at) await fs.append(FILE, encoder.encode(line(at)));
      });
      const result = await text(memory, FILE);
      const backup = await text(memory, `${FILE}.bak`);
      assert.ok(outcome.written);
      // Either the rewrite saw the line (it is upper-cased, and in the backup) or carried it over as written.
      const seen = backup.includes(line(at));
      assert.equal(result, seen ? (content + line(at)).toUpperCase() : content.toUpperCase() + line(at), `line appended at point ${at}`);
      assert.equal(backup, seen ? content + line(at) : content);
      // Carried over when it came before the rename; after it, it was appended to the new file itself.
      assert.ok(outcome.carried.lines <= (seen ? 0 : 1));
      assert.deepEqual((await memory.list("/s")).map((e) => e.name).sort(), ["a.jsonl", "a.jsonl.bak"], "no temp file or link left");
    }
  });

  it("safeRewrite() keeps lines appended at every point of one rewrite, and on the old file after the rename", { timeout: 120_000 }, async () => {
    const content = original(30, 60_000);
    let n = 0;
    let afterRename = 0;
    const { memory, outcome } = await rewriteWith(content, async (_point, fs, oldName) => {
      await fs.append(FILE, encoder.encode(line(n++)));
      // Appends that opened the file before the rename write to the old file after it: a few,
      // since appends that open the file later find the new one.
      if (oldName && afterRename++ < 4) await fs.append(oldName, encoder.encode(line(n++)));
    });
    const result = await text(memory, FILE);
    const counts = appendedCounts(result.toLowerCase());
    assert.equal(counts.size, n, `${n} lines appended, ${counts.size} found`);
    for (const [number, count] of counts) assert.equal(count, 1, `line ${number} found ${count} times`);
    assert.ok(outcome.written);
    assert.ok(outcome.carried.lines > 0);
    assert.ok(outcome.carried.lateBytes > 0, "a line reached the old file after the rename");
    assert.equal(countLines(outcome.carried.bytes), outcome.carried.lines);
  });

  it("safeRewrite() keeps nothing aside when told to keep the file, and leaves no scratch names", { timeout: 120_000 }, async () => {
    const memory = new MemoryFileSystem();
    await memory.mkdir("/s");
    await memory.append(FILE, encoder.encode("a\n"));
    const outcome = await safeRewrite(memory, FILE, () => ({ kind: "keep", detail: 7 }));
    assert.deepEqual(outcome, { written: false, detail: 7 });
    assert.deepEqual((await memory.list("/s")).map((e) => e.name), ["a.jsonl"]);
  });

  it("safeRewrite() leaves the file as it was when deciding throws", { timeout: 120_000 }, async () => {
    const memory = new MemoryFileSystem();
    await memory.mkdir("/s");
    await memory.append(FILE, encoder.encode("a\n"));
    await assert.rejects(() => safeRewrite(memory, FILE, () => { throw new RangeError("no"); }), RangeError);
    assert.equal(await text(memory, FILE), "a\n");
    assert.deepEqual((await memory.list("/s")).map((e) => e.name), ["a.jsonl"]);
  });

  it("safeRewrite() waits for a last line still being written before it decides", { timeout: 120_000 }, async () => {
    let shown = "";
    let points = 0;
    const memory = new MemoryFileSystem();
    await memory.mkdir("/s");
    await memory.append(FILE, encoder.encode("one\ntw"));
    // The rest of the line arrives a few operations later.
    const fs = new InjectingFileSystem(memory, FILE, async () => {
      if (++points === 6) await memory.append(FILE, encoder.encode("o\n"));
    });
    await safeRewrite(fs, FILE, (bytes) => {
      shown = decoder.decode(bytes);
      return upper(bytes);
    });
    assert.equal(shown, "one\ntwo\n");
    assert.equal(await text(memory, FILE), "ONE\nTWO\n");
  });

  it("safeRewrite() leaves no part of a backup it could not finish, and the file as it was", { timeout: 120_000 }, async () => {
    // The disk fills up while the backup is written (its temp file's bytes).
    let full = false;
    const memory = new MemoryFileSystem({
      fault: (step) => {
        if (full && step.op === "write" && step.path.includes(".bak")) throw Object.assign(new Error("no space left on the device"), { code: "ENOSPC" });
      },
    });
    await memory.mkdir("/s");
    await memory.append(FILE, encoder.encode("a\n"));
    full = true;
    const fs = new InjectingFileSystem(memory, FILE, async () => {});
    await assert.rejects(() => safeRewrite(fs, FILE, upper), /no space left/);
    assert.equal(await text(memory, FILE), "a\n");
    assert.deepEqual((await memory.list("/s")).map((e) => e.name), ["a.jsonl"]);
  });

  it("safeRewrite() that cannot write the new file removes the backup it made and leaves the file as it was", { timeout: 120_000 }, async () => {
    const memory = new MemoryFileSystem();
    await memory.mkdir("/s");
    await memory.append(FILE, encoder.encode("a\n"));
    const fs = new InjectingFileSystem(memory, FILE, async () => {});
    fs.writeAtomic = async (path) => {
      throw new FsError("Other", path, `Cannot write "${path}": no space left on the device`);
    };
    await assert.rejects(() => safeRewrite(fs, FILE, upper), /no space left/);
    assert.equal(await text(memory, FILE), "a\n");
    assert.deepEqual((await memory.list("/s")).map((e) => e.name), ["a.jsonl"]);
  });

  it("safeRewrite() that cannot remove its scratch link still succeeds: the new file is in place", { timeout: 120_000 }, async () => {
    const memory = new MemoryFileSystem();
    await memory.mkdir("/s");
    await memory.append(FILE, encoder.encode("a\n"));
    const fs = new InjectingFileSystem(memory, FILE, async () => {});
    const remove = fs.remove;
    fs.remove = async (path) => {
      if (path.endsWith(".tmp")) throw new FsError("Other", path, `Cannot remove "${path}": input/output error`);
      return remove(path);
    };
    const outcome = await safeRewrite(fs, FILE, upper);
    assert.ok(outcome.written);
    assert.equal(await text(memory, FILE), "A\n");
    assert.equal(await text(memory, `${FILE}.bak`), "a\n");
  });

  it("safeRewrite() keeps the old file, and says where, when it cannot carry over what reached it after the rename", { timeout: 120_000 }, async () => {
    let oldName: string | undefined;
    const memory = new MemoryFileSystem();
    await memory.mkdir("/s");
    await memory.append(FILE, encoder.encode("a\n"));
    let late = false;
    const fs = new InjectingFileSystem(memory, FILE, async (_point, old) => {
      if (old && !late) {
        late = true;
        oldName = old;
        await memory.append(old, encoder.encode(line(1)));
      }
    });
    const append = fs.append;
    fs.append = async (path, data, options) => {
      if (late && path === FILE) throw new FsError("Other", path, `Cannot append to "${path}": no space left on the device`);
      return append(path, data, options);
    };
    await assert.rejects(() => safeRewrite(fs, FILE, upper), (error: Error) => error.message.includes(`the old file is kept as "${oldName}" from byte 2`));
    assert.equal(await text(memory, FILE), "A\n");
    assert.equal(await text(memory, oldName!), "a\n" + line(1));
  });

  it("safeRewrite() rewrites the target of a symbolic link, never the link", { timeout: 120_000 }, async () => {
    const fs = detectFileSystem();
    const dir = await mkdtemp(join(tmpdir(), "pi-session-rewrite-"));
    try {
      await writeFile(join(dir, "target.jsonl"), "a\n");
      await symlink(join(dir, "target.jsonl"), join(dir, "link.jsonl"));
      const outcome = await safeRewrite(fs, join(dir, "link.jsonl"), (bytes) => ({
        ...upper(bytes),
        backupName: () => join(dir, "target.jsonl.bak"),
      }));
      assert.ok(outcome.written);
      assert.ok((await lstat(join(dir, "link.jsonl"))).isSymbolicLink());
      assert.equal(await readFile(join(dir, "target.jsonl"), "utf8"), "A\n");
      assert.equal(await readFile(join(dir, "target.jsonl.bak"), "utf8"), "a\n");
      assert.deepEqual((await readdir(dir)).sort(), ["link.jsonl", "target.jsonl", "target.jsonl.bak"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
