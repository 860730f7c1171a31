/**
 * The one contract every `FileSystem` adapter must pass (node, deno, bun, memory), in the
 * manner of unstorage's shared driver suite. Each test gets a fresh, empty root directory.
 * @module
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type FileSystem, type FsErrorKind, isFsError } from "../../src/io/file-system.ts";

/** A fresh file system with an empty directory `root` in it, and how to dispose of both. */
export interface FsFixture {
  fs: FileSystem;
  root: string;
  cleanup: () => Promise<void>;
}

interface TestContext {
  fs: FileSystem;
  /** `root` joined with the given names. */
  at: (...names: string[]) => string;
}

const encoder = new TextEncoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);

async function readAll(fs: FileSystem, path: string, range?: { start?: number; end?: number }): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of fs.read(path, range)) chunks.push(chunk);
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

async function readText(fs: FileSystem, path: string, range?: { start?: number; end?: number }): Promise<string> {
  return new TextDecoder().decode(await readAll(fs, path, range));
}

async function rejectsWith(action: () => Promise<unknown>, kinds: FsErrorKind[], path?: string): Promise<void> {
  await assert.rejects(action, (error: unknown) => {
    assert.ok(isFsError(error), `expected an FsError, got ${String(error)}`);
    assert.ok(kinds.includes(error.kind), `expected ${kinds.join(" or ")}, got ${error.kind}: ${error.message}`);
    if (path !== undefined) assert.equal(error.path, path);
    return true;
  });
}

async function names(fs: FileSystem, dir: string): Promise<string[]> {
  return (await fs.list(dir)).map((entry) => entry.name).sort();
}

/** Registers the contract tests for one adapter; `makeFs` runs once per test. */
export function describeFileSystemContract(name: string, makeFs: () => Promise<FsFixture>): void {
  const test = (title: string, body: (context: TestContext) => Promise<void>) =>
    it(title, async () => {
      const { fs, root, cleanup } = await makeFs();
      try {
        await body({ fs, at: (...parts) => [root, ...parts].join("/") });
      } finally {
        await cleanup();
      }
    });

  describe(`FileSystem contract: ${name}`, () => {
    test("read() streams a whole file, across chunk boundaries", async ({ fs, at }) => {
      const big = new Uint8Array(200_000).map((_, i) => i % 251);
      await fs.append(at("small"), bytes("hello world"));
      await fs.append(at("big"), big);
      assert.equal(await readText(fs, at("small")), "hello world");
      assert.deepEqual(await readAll(fs, at("big")), big);
    });

    test("read() honours a range with an exclusive end", async ({ fs, at }) => {
      await fs.append(at("f"), bytes("hello world"));
      assert.equal(await readText(fs, at("f"), { start: 6 }), "world");
      assert.equal(await readText(fs, at("f"), { end: 5 }), "hello");
      assert.equal(await readText(fs, at("f"), { start: 2, end: 5 }), "llo");
      assert.equal(await readText(fs, at("f"), { start: 6, end: 100 }), "world");
      assert.equal(await readText(fs, at("f"), { start: 3, end: 3 }), "");
      assert.equal(await readText(fs, at("f"), { start: 50 }), "");
      const big = new Uint8Array(70_000).map((_, i) => i % 199);
      await fs.append(at("big"), big);
      assert.deepEqual(await readAll(fs, at("big"), { start: 65_530, end: 65_550 }), big.slice(65_530, 65_550));
    });

    test("read() streams files above and below the adapters' chunk sizes, with or without an end", async ({ fs, at }) => {
      const huge = new Uint8Array(2_500_000).map((_, i) => (i * 7) % 253);
      await fs.append(at("huge"), huge);
      await fs.append(at("small"), bytes("hello world"));
      assert.deepEqual(await readAll(fs, at("huge")), huge);
      assert.deepEqual(await readAll(fs, at("huge"), { start: 1_000_000 }), huge.slice(1_000_000));
      assert.deepEqual(await readAll(fs, at("huge"), { start: 10, end: 2_400_000 }), huge.slice(10, 2_400_000));
      assert.equal(await readText(fs, at("small"), { end: 1_000_000_000 }), "hello world");
    });

    test("read({reuseBuffer}) gives each file's own bytes, and a chunk kept after breaking off stays as it was", async ({ fs, at }) => {
      const files = ["a", "bb", "ccc", "dddd"].map((text, i) => ({ path: at(`f${i}`), bytes: bytes(text.repeat(1000 + i)) }));
      const huge = new Uint8Array(2_500_000).map((_, i) => i % 241);
      for (const file of files) await fs.append(file.path, file.bytes);
      await fs.append(at("huge"), huge);
      let kept: Uint8Array | undefined;
      for await (const chunk of fs.read(files[0].path, { reuseBuffer: true })) {
        kept = chunk;
        break;
      }
      const copy = new Uint8Array(kept!);
      for (let round = 0; round < 3; round++) {
        await Promise.all(files.map(async (file) => {
          const parts: number[] = [];
          for await (const chunk of fs.read(file.path, { reuseBuffer: true })) parts.push(...chunk);
          assert.deepEqual(new Uint8Array(parts), file.bytes);
        }));
        let offset = 0;
        for await (const chunk of fs.read(at("huge"), { reuseBuffer: true })) {
          assert.deepEqual(new Uint8Array(chunk), huge.subarray(offset, offset + chunk.length));
          offset += chunk.length;
        }
        assert.equal(offset, huge.length);
      }
      assert.deepEqual(new Uint8Array(kept!), copy);
    });

    test("read() yields nothing for an empty file", async ({ fs, at }) => {
      await fs.append(at("empty"), new Uint8Array(0));
      assert.equal((await readAll(fs, at("empty"))).length, 0);
    });

    test("read() of a missing file fails with NotFound", async ({ fs, at }) => {
      await rejectsWith(() => readAll(fs, at("missing")), ["NotFound"], at("missing"));
      await rejectsWith(() => readAll(fs, at("missing"), { start: 1, end: 2 }), ["NotFound"]);
    });

    test("read() stops cleanly when the caller breaks off", async ({ fs, at }) => {
      await fs.append(at("big"), new Uint8Array(300_000));
      for await (const chunk of fs.read(at("big"))) {
        assert.ok(chunk.length > 0);
        break;
      }
      await fs.remove(at("big"));
      assert.equal(await fs.stat(at("big")), null);
    });

    test("stat() reports size, mtime and kind", async ({ fs, at }) => {
      await fs.append(at("f"), bytes("12345"));
      await fs.mkdir(at("d"));
      const file = await fs.stat(at("f"));
      assert.ok(file !== null);
      assert.equal(file.size, 5);
      assert.equal(file.isFile, true);
      assert.equal(file.isDirectory, false);
      assert.ok(Math.abs(file.mtimeMs - Date.now()) < 60_000, `mtime ${file.mtimeMs} is not recent`);
      const dir = await fs.stat(at("d"));
      assert.equal(dir?.isDirectory, true);
      assert.equal(dir?.isFile, false);
    });

    test("stat() returns null when nothing is there", async ({ fs, at }) => {
      await fs.append(at("f"), bytes("x"));
      assert.equal(await fs.stat(at("missing")), null);
      assert.equal(await fs.stat(at("f", "below-a-file")), null);
    });

    test("statNow(), where the adapter has it, answers as stat() does", async ({ fs, at }) => {
      if (!fs.statNow) return;
      await fs.append(at("f"), bytes("12345"));
      await fs.mkdir(at("d"));
      for (const path of [at("f"), at("d"), at("missing"), at("f", "below-a-file")]) assert.deepEqual(fs.statNow(path), await fs.stat(path), path);
    });

    test("list() names the files and directories in a directory", async ({ fs, at }) => {
      await fs.append(at("a.jsonl"), bytes("a"));
      await fs.mkdir(at("sub"));
      await fs.append(at("sub", "nested"), bytes("n"));
      const entries = (await fs.list(at())).sort((x, y) => x.name.localeCompare(y.name));
      assert.deepEqual(entries, [
        { name: "a.jsonl", isFile: true, isDirectory: false },
        { name: "sub", isFile: false, isDirectory: true },
      ]);
      assert.deepEqual(await fs.list(at("sub", "..", "sub")), [{ name: "nested", isFile: true, isDirectory: false }]);
    });

    test("append() creates a file with mode 0600, then appends to it", async ({ fs, at }) => {
      await fs.append(at("s.jsonl"), bytes("one\n"));
      await fs.append(at("s.jsonl"), bytes("two\n"));
      assert.equal(await readText(fs, at("s.jsonl")), "one\ntwo\n");
      const mode = (await fs.stat(at("s.jsonl")))?.mode;
      if (mode !== 0) assert.equal(mode, 0o600); // 0 means the platform has no modes
    });

    test("append({exclusive}) creates a new file but fails with AlreadyExists on an old one", async ({ fs, at }) => {
      await fs.append(at("new"), bytes("first"), { exclusive: true });
      await rejectsWith(() => fs.append(at("new"), bytes("second"), { exclusive: true }), ["AlreadyExists"], at("new"));
      assert.equal(await readText(fs, at("new")), "first");
    });

    test("append() into a missing directory fails with NotFound", async ({ fs, at }) => {
      await rejectsWith(() => fs.append(at("nope", "f"), bytes("x")), ["NotFound"]);
    });

    test("writeAtomic() creates and replaces content, leaving no temp files", async ({ fs, at }) => {
      await fs.writeAtomic(at("s.jsonl"), bytes("first version, longer\n"));
      assert.equal(await readText(fs, at("s.jsonl")), "first version, longer\n");
      await fs.writeAtomic(at("s.jsonl"), bytes("second\n"));
      assert.equal(await readText(fs, at("s.jsonl")), "second\n");
      assert.deepEqual(await names(fs, at()), ["s.jsonl"]);
      const mode = (await fs.stat(at("s.jsonl")))?.mode;
      if (mode !== 0) assert.equal(mode, 0o600);
    });

    test("writeAtomic() writes chunks as they are produced, even from one reused buffer", async ({ fs, at }) => {
      const buffer = new Uint8Array(4);
      async function* chunks() {
        for (const part of ["ab", "cdef", "", "g\n"]) {
          buffer.fill(0);
          buffer.set(bytes(part));
          yield buffer.subarray(0, part.length);
        }
      }
      await fs.writeAtomic(at("s.jsonl"), chunks());
      assert.equal(await readText(fs, at("s.jsonl")), "abcdefg\n");
      assert.deepEqual(await names(fs, at()), ["s.jsonl"]);
    });

    test("writeAtomic() leaves the old file alone and rethrows as it is when producing a chunk fails", async ({ fs, at }) => {
      await fs.writeAtomic(at("s.jsonl"), bytes("old\n"));
      const failure = new SyntaxError("the source broke");
      async function* chunks() {
        yield bytes("new, part one\n");
        throw failure;
      }
      await assert.rejects(() => fs.writeAtomic(at("s.jsonl"), chunks()), (error) => error === failure);
      assert.equal(await readText(fs, at("s.jsonl")), "old\n");
      assert.deepEqual(await names(fs, at()), ["s.jsonl"], "no temp file left behind");
    });

    test("writeAtomic({exclusive}) creates a whole new file, mode 0600, and leaves no temp file", async ({ fs, at }) => {
      await fs.writeAtomic(at("new.jsonl"), bytes("whole\n"), { exclusive: true });
      assert.equal(await readText(fs, at("new.jsonl")), "whole\n");
      assert.deepEqual(await names(fs, at()), ["new.jsonl"]);
      const mode = (await fs.stat(at("new.jsonl")))?.mode;
      if (mode !== 0) assert.equal(mode, 0o600);
    });

    test("writeAtomic({exclusive}) never replaces a file that is there", async ({ fs, at }) => {
      await fs.append(at("s.jsonl"), bytes("theirs\n"));
      await rejectsWith(() => fs.writeAtomic(at("s.jsonl"), bytes("ours\n"), { exclusive: true }), ["AlreadyExists"], at("s.jsonl"));
      assert.equal(await readText(fs, at("s.jsonl")), "theirs\n");
      assert.deepEqual(await names(fs, at()), ["s.jsonl"], "no temp file left behind");
    });

    test("writeAtomic({exclusive}) leaves nothing when producing a chunk fails", async ({ fs, at }) => {
      const failure = new SyntaxError("the source broke");
      async function* chunks() {
        yield bytes("part one\n");
        throw failure;
      }
      await assert.rejects(() => fs.writeAtomic(at("new.jsonl"), chunks(), { exclusive: true }), (error) => error === failure);
      assert.deepEqual(await names(fs, at()), []);
    });

    test("writeAtomic() fails with NotFound in a missing directory and onto a directory with IsDirectory", async ({ fs, at }) => {
      await rejectsWith(() => fs.writeAtomic(at("nope", "f"), bytes("x")), ["NotFound"], at("nope", "f"));
      await fs.mkdir(at("d"));
      await rejectsWith(() => fs.writeAtomic(at("d"), bytes("x")), ["IsDirectory"], at("d"));
      assert.deepEqual(await names(fs, at()), ["d"]);
    });

    test("rename() moves a file and replaces an existing target", async ({ fs, at }) => {
      await fs.append(at("a"), bytes("A"));
      await fs.append(at("b"), bytes("B"));
      await fs.mkdir(at("sub"));
      await fs.rename(at("a"), at("sub", "a2"));
      assert.equal(await fs.stat(at("a")), null);
      assert.equal(await readText(fs, at("sub", "a2")), "A");
      await fs.rename(at("sub", "a2"), at("b"));
      assert.equal(await readText(fs, at("b")), "A");
      await rejectsWith(() => fs.rename(at("missing"), at("x")), ["NotFound"], at("missing"));
    });

    test("remove() deletes a file or an empty directory", async ({ fs, at }) => {
      await fs.append(at("f"), bytes("x"));
      await fs.mkdir(at("d"));
      await fs.remove(at("f"));
      await fs.remove(at("d"));
      assert.deepEqual(await names(fs, at()), []);
      await rejectsWith(() => fs.remove(at("f")), ["NotFound"], at("f"));
    });

    test("mkdir() creates one level, or with recursive all of them", async ({ fs, at }) => {
      await fs.mkdir(at("one"));
      await rejectsWith(() => fs.mkdir(at("one")), ["AlreadyExists"], at("one"));
      await rejectsWith(() => fs.mkdir(at("x", "y")), ["NotFound"]);
      await fs.mkdir(at("a", "b", "c"), { recursive: true });
      await fs.mkdir(at("a", "b", "c"), { recursive: true });
      assert.equal((await fs.stat(at("a", "b", "c")))?.isDirectory, true);
    });

    test("chmod() sets the permission bits of a file and a directory; a missing path is NotFound", async ({ fs, at }) => {
      assert.ok(fs.chmod, "every adapter has chmod");
      await fs.mkdir(at("d"));
      await fs.append(at("d", "f"), bytes("x"), { mode: 0o644 });
      await fs.chmod(at("d", "f"), 0o600);
      await fs.chmod(at("d"), 0o700);
      const [file, dir] = [(await fs.stat(at("d", "f")))!.mode & 0o777, (await fs.stat(at("d")))!.mode & 0o777];
      // 0 means the platform has no modes (Windows keeps only a read-only flag).
      if (file !== 0 && globalThis.navigator?.platform !== "Win32") assert.deepEqual([file, dir], [0o600, 0o700]);
      assert.equal(await readText(fs, at("d", "f")), "x");
      await rejectsWith(() => fs.chmod!(at("missing"), 0o600), ["NotFound"], at("missing"));
    });

    test("link() gives a file a second name that keeps the old bytes after a rename over the first", async ({ fs, at }) => {
      await fs.append(at("s.jsonl"), bytes("one\n"));
      await fs.link(at("s.jsonl"), at("old"));
      await fs.append(at("s.jsonl"), bytes("two\n"));
      assert.equal(await readText(fs, at("old")), "one\ntwo\n", "both names show an append through either");
      await fs.writeAtomic(at("s.jsonl"), bytes("new\n"));
      await fs.append(at("old"), bytes("late\n"));
      assert.equal(await readText(fs, at("old")), "one\ntwo\nlate\n");
      assert.equal(await readText(fs, at("s.jsonl")), "new\n");
      await fs.remove(at("old"));
      assert.deepEqual(await names(fs, at()), ["s.jsonl"]);
      await rejectsWith(() => fs.link(at("s.jsonl"), at("s.jsonl")), ["AlreadyExists"], at("s.jsonl"));
      await rejectsWith(() => fs.link(at("missing"), at("x")), ["NotFound"], at("missing"));
    });

    test("realPath() names a file absolutely, and fails with NotFound when nothing is there", async ({ fs, at }) => {
      await fs.mkdir(at("d"));
      await fs.append(at("d", "f"), bytes("x"));
      const real = await fs.realPath(at("d", "f"));
      assert.ok(real.startsWith("/") || /^[A-Za-z]:\\/.test(real), real);
      assert.ok(real.endsWith("/d/f") || real.endsWith("\\d\\f"), real);
      assert.equal(await fs.realPath(at("d", "..", "d", "f")), real);
      await rejectsWith(() => fs.realPath(at("missing")), ["NotFound"], at("missing"));
    });

    test("native failures come out as FsError kinds", async ({ fs, at }) => {
      await fs.mkdir(at("d"));
      await fs.append(at("d", "inner"), bytes("x"));
      await fs.append(at("f"), bytes("x"));
      await rejectsWith(() => readAll(fs, at("d")), ["IsDirectory"], at("d"));
      await rejectsWith(() => fs.list(at("f")), ["NotDirectory"], at("f"));
      await rejectsWith(() => fs.list(at("missing")), ["NotFound"]);
      await rejectsWith(() => fs.remove(at("d")), ["NotEmpty", "Other"], at("d"));
      await rejectsWith(() => fs.append(at("d"), bytes("x")), ["IsDirectory"]);
      await rejectsWith(() => fs.mkdir(at("f", "sub"), { recursive: true }), ["NotDirectory"]);
      assert.deepEqual(await names(fs, at("d")), ["inner"]);
    });

    test("watch() tells of an append in a subfolder until closed, and a missing folder gives null", async ({ fs, at }) => {
      await fs.mkdir(at("sessions", "p"), { recursive: true });
      await fs.append(at("sessions", "p", "s.jsonl"), bytes("{}\n"));
      const seen: (string | null)[] = [];
      let wake = () => {};
      const watcher = fs.watch?.(at("sessions"), (path) => {
        seen.push(path);
        wake();
      });
      assert.ok(watcher, "every adapter watches an existing folder");
      try {
        // The watch may take a moment to arm on a disk: append until it reports the file.
        while (!seen.some((path) => path === null || path.endsWith("s.jsonl"))) {
          const woken = new Promise<void>((resolve) => (wake = resolve));
          await fs.append(at("sessions", "p", "s.jsonl"), bytes("{}\n"));
          await Promise.race([woken, new Promise((resolve) => setTimeout(resolve, 50))]);
        }
      } finally {
        watcher.close();
      }
      assert.equal(fs.watch?.(at("missing"), () => {}) ?? null, null);
    });

    test("error messages name the operation and quote the path", async ({ fs, at }) => {
      await assert.rejects(() => readAll(fs, at("missing")), {
        message: `Cannot read "${at("missing")}": no such file or directory`,
      });
    });
  });
}
