/**
 * The server's background read of every session's header (for resolving ids) waits for a quiet
 * moment counted from when the server is ready: a first scan of many files takes seconds, and
 * the first requests, coming right after it, must not find that read under way (at 25,000
 * sessions it came first, and they waited behind it and held its memory beside theirs).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FileSystem } from "../../src/io/file-system.ts";
import { addSession, memoryFs, userEntry } from "../cli/_harness.ts";
import { testServer } from "./_server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `fs` whose stats take `slowMs` while `slow()` says so, and which counts the reads of session files. */
function watchedFs(fs: FileSystem, slow: () => boolean, slowMs: number): { fs: FileSystem; reads: () => number } {
  let reads = 0;
  const wrapped = new Proxy(fs, {
    get(target, key) {
      if (key === "stat") {
        return async (path: string) => {
          if (slow() && path.endsWith(".jsonl")) await sleep(slowMs);
          return target.stat(path);
        };
      }
      if (key === "read") {
        return (path: string, range?: Parameters<FileSystem["read"]>[1]) => {
          if (path.endsWith(".jsonl")) reads++;
          return target.read(path, range);
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { fs: wrapped, reads: () => reads };
}

describe("serve: the background header read", () => {
  it("waits for a quiet moment after a slow first scan, not one counted from before it", { timeout: 30_000 }, async () => {
    const base = memoryFs();
    for (let i = 0; i < 3; i++) await addSession(base, `0c1d2e3f-0000-4000-8000-00000000000${i}`, [userEntry("u1", null, `task ${i}`)], { cwd: `/home/u/p${i}` });
    let starting = true;
    // Three files at 300 ms a stat: the first scan takes longer than the quiet period (500 ms).
    const { fs, reads } = watchedFs(base, () => starting, 300);
    const server = await testServer({ fs, pollMs: { watched: 60_000, unwatched: 60_000 } });
    starting = false;
    try {
      // A request comes right after the start, and is answered for a while.
      const ended = server.state.answering();
      const before = reads();
      await sleep(900);
      assert.equal(reads(), before, "no session file was read while the first request was being answered");
      ended();
      // Once quiet, the headers are read.
      for (let waited = 0; reads() === before && waited < 20_000; waited += 50) await sleep(50);
      assert.ok(reads() > before, "the headers are read once the server is quiet");
    } finally {
      await server.close();
    }
  });
});
