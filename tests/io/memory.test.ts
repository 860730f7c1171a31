/**
 * What the memory file system adds beyond the shared contract: pinned mtimes, POSIX path
 * resolution against its cwd, and a configurable chunk size.
 * @module
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isFsError } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("MemoryFileSystem", () => {
  it("MemoryFileSystem takes mtimes from the injected clock", async () => {
    let now = 5_000;
    const fs = new MemoryFileSystem({ clock: () => now });
    await fs.append("/s.jsonl", bytes("a"));
    now = 6_000;
    await fs.append("/s.jsonl", bytes("b"));
    assert.equal((await fs.stat("/s.jsonl"))?.mtimeMs, 6_000);
    assert.equal((await fs.stat("/"))?.mtimeMs, 5_000, "appending does not touch the directory");
    now = 7_000;
    await fs.mkdir("/d");
    assert.equal((await fs.stat("/"))?.mtimeMs, 7_000, "creating an entry does");
  });

  it("MemoryFileSystem resolves relative paths, '.' and '..' against its cwd", async () => {
    const fs = new MemoryFileSystem({ cwd: "/home/me" });
    await fs.mkdir("/home/me/sessions", { recursive: true });
    await fs.append("sessions/./a.jsonl", bytes("x"));
    assert.equal((await fs.stat("/home/me/sessions/a.jsonl"))?.size, 1);
    assert.equal((await fs.stat("../me//sessions/a.jsonl/"))?.isFile, true);
  });

  it("MemoryFileSystem keeps the mode it was given", async () => {
    const fs = new MemoryFileSystem();
    await fs.writeAtomic("/a", bytes("x"), { mode: 0o644 });
    await fs.append("/b", bytes("x"), { mode: 0o640 });
    assert.equal((await fs.stat("/a"))?.mode, 0o644);
    assert.equal((await fs.stat("/b"))?.mode, 0o640);
  });

  it("MemoryFileSystem yields chunks of at most chunkSize bytes", async () => {
    const fs = new MemoryFileSystem({ chunkSize: 4 });
    await fs.append("/f", bytes("0123456789"));
    const chunks: string[] = [];
    for await (const chunk of fs.read("/f", { start: 1 })) chunks.push(new TextDecoder().decode(chunk));
    assert.deepEqual(chunks, ["1234", "5678", "9"]);
  });

  it("MemoryFileSystem copies data in and out", async () => {
    const fs = new MemoryFileSystem();
    const data = bytes("abc");
    await fs.writeAtomic("/f", data);
    data[0] = 0x7a;
    for await (const chunk of fs.read("/f")) chunk[1] = 0x7a;
    for await (const chunk of fs.read("/f")) assert.equal(new TextDecoder().decode(chunk), "abc");
  });

  it("MemoryFileSystem refuses to move a directory inside itself or replace the root", async () => {
    const fs = new MemoryFileSystem();
    await fs.mkdir("/a/b", { recursive: true });
    await assert.rejects(fs.rename("/a", "/a/b/c"), (error: unknown) => isFsError(error, "Other"));
    await assert.rejects(fs.remove("/"), (error: unknown) => isFsError(error, "Other"));
    await assert.rejects(fs.mkdir("/"), (error: unknown) => isFsError(error, "AlreadyExists"));
  });

  it("MemoryFileSystem fails a write past its quota as a full disk does, keeping nothing of it", async () => {
    const fs = new MemoryFileSystem({ quota: 10 });
    await fs.append("/s.jsonl", bytes("12345678"));
    const full = (error: unknown) => isFsError(error, "Other") && /no space left on the device/.test(error.message);
    await assert.rejects(fs.append("/s.jsonl", bytes("abc")), full);
    await assert.rejects(fs.append("/t.jsonl", bytes("abc"), { exclusive: true }), full);
    await assert.rejects(fs.writeAtomic("/s.jsonl", bytes("abc")), full, "the temp needs room beside the old file");
    assert.equal((await fs.stat("/s.jsonl"))?.size, 8);
    assert.equal(await fs.stat("/t.jsonl"), null);
    await fs.append("/s.jsonl", bytes("ab"));
    assert.equal((await fs.stat("/s.jsonl"))?.size, 10);
  });

  it("MemoryFileSystem's fault hook fails the step it throws for, and that step changes nothing", async () => {
    const steps: string[] = [];
    const fs = new MemoryFileSystem({
      fault: (step) => {
        steps.push(`${step.op} ${step.path}`);
        if (step.op === "rename") throw Object.assign(new Error("EIO"), { code: "EIO" });
      },
    });
    await fs.mkdir("/d");
    await fs.append("/d/s", bytes("x"));
    await assert.rejects(fs.writeAtomic("/d/s", bytes("y")), (error: unknown) => isFsError(error, "Other") && /input\/output error/.test(error.message));
    await assert.rejects(fs.rename("/d/s", "/d/t"));
    await fs.remove("/d/s");
    assert.deepEqual(steps, ["mkdir /d", "append /d/s", "write /d/s", "rename /d/s", "rename /d/s", "remove /d/s"]);
  });
});
