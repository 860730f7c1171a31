/**
 * Helpers for catalog tests: a file system that counts the bytes read, session files big
 * enough for the tail check, and the digest a fresh full read would give.
 * @module
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { SqliteDb } from "../../src/catalog/sqlite/sqlite-db.ts";
import type { CatalogRecord } from "../../src/catalog/store.ts";
import { type DigestKind, Digester, type DigestResult } from "../../src/core/digest/digester.ts";
import type { FileStat, FileSystem } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";

/** `fs` with a running count of the bytes read through it, per path. */
export class CountingFileSystem implements FileSystem {
  readonly inner: FileSystem;
  bytes = 0;
  byPath = new Map<string, number>();

  constructor(inner: FileSystem) {
    this.inner = inner;
  }

  reset(): void {
    this.bytes = 0;
    this.byPath.clear();
  }

  async *read(path: string, range?: Parameters<FileSystem["read"]>[1]): AsyncGenerator<Uint8Array> {
    for await (const chunk of this.inner.read(path, range)) {
      this.bytes += chunk.length;
      this.byPath.set(path, (this.byPath.get(path) ?? 0) + chunk.length);
      yield chunk;
    }
  }
  stat = (path: string) => this.inner.stat(path);
  list = (dir: string) => this.inner.list(dir);
  append: FileSystem["append"] = (path, data, options) => this.inner.append(path, data, options);
  writeAtomic: FileSystem["writeAtomic"] = (path, data, options) => this.inner.writeAtomic(path, data, options);
  rename = (from: string, to: string) => this.inner.rename(from, to);
  remove = (path: string) => this.inner.remove(path);
  mkdir: FileSystem["mkdir"] = (path, options) => this.inner.mkdir(path, options);
  link = (existing: string, newPath: string) => this.inner.link(existing, newPath);
  realPath = (path: string) => this.inner.realPath(path);
}

/** A memory file system whose clock moves on by a second at every write. */
export function tickingFs(): MemoryFileSystem {
  let now = Date.UTC(2025, 5, 1);
  return new MemoryFileSystem({ clock: () => (now += 1000), chunkSize: 4096 });
}

const encoder = new TextEncoder();

/** Bytes of a JSON-lines text. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A session file with `turns` user/assistant pairs (each assistant with usage), about 600 bytes a turn. */
export function sessionText(id: string, turns: number, options: { cwd?: string; from?: number; parentSession?: string } = {}): string {
  const lines: object[] = [];
  const from = options.from ?? 0;
  if (from === 0) {
    lines.push({ type: "session", version: 3, id, timestamp: "2025-06-01T10:00:00.000Z", cwd: options.cwd ?? "/work/p", ...(options.parentSession ? { parentSession: options.parentSession } : {}) });
  }
  for (let i = from; i < from + turns; i++) {
    const ts = new Date(Date.UTC(2025, 5, 1, 10) + i * 60_000).toISOString();
    const usage = { input: 100 + i, output: 10, cacheRead: 5, cacheWrite: 1, totalTokens: 116 + i, cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 } };
    lines.push({ type: "message", id: `u${id}${i}`, parentId: i ? `a${id}${i - 1}` : null, timestamp: ts, message: { role: "user", content: `question ${i} about src/file${i}.ts in ${id}`, timestamp: Date.parse(ts) } });
    lines.push({
      type: "message",
      id: `a${id}${i}`,
      parentId: `u${id}${i}`,
      timestamp: ts,
      message: {
        role: "assistant",
        content: [{ type: "text", text: `answer ${i} ünïcode 日本語` }, { type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `src/file${i}.ts` } }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-test",
        usage,
        stopReason: "stop",
        timestamp: Date.parse(ts),
      },
    });
  }
  return lines.map((l) => JSON.stringify(l) + "\n").join("");
}

/** What one full pass over `bytes` gives (the oracle for incremental refreshes). */
export function fullDigest<S>(kind: DigestKind<S, unknown>, bytes: Uint8Array): DigestResult<S> {
  const d = new Digester(kind);
  d.push(bytes);
  return d.finish();
}

/** The SQLite binding this runtime offers (named in test titles), or why there is none. */
export async function sqliteBinding(): Promise<{ driver: string } | { skip: string }> {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-probe-"));
  try {
    const store = await openSqliteStore(join(dir, "probe.sqlite"));
    const driver = store.kind.replace(/^sqlite \((.*)\)$/, "$1");
    store.close();
    return { driver };
  } catch (error) {
    return { skip: `no SQLite in this runtime (${(error as Error).message.split("\n")[0]})` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A small record of `path` (no rows) whose stamps and counts are made from `n`. */
export function sampleRecord(path: string, n: number): CatalogRecord {
  const state = { header: { id: `id-${n}`, cwd: "/p" }, rejected: false, data: { rows: [] } };
  return { path, size: 100 + n, mtimeMs: 1748772000000 + n, end: 100 + n, lines: n, headHash: "0123456789abcdef", tailHash: "fedcba9876543210", headerId: `id-${n}`, state };
}

/** The runtime's own SQLite opened on `path` (Bun's under Bun, `node:sqlite` elsewhere), under no store. */
export const openRawSqlite = (path: string): Promise<SqliteDb> => ("Bun" in globalThis ? openBunSqlite(path) : openNodeSqlite(path));

/**
 * `memory` seen through a stat that gives the folders of `pinned` the mtime pinned there (what a
 * change in place under a coarse clock, or a copy, can leave), calling `onStat` with each path.
 */
export function pinnedStatFs(memory: MemoryFileSystem, pinned: ReadonlyMap<string, number>, onStat?: (path: string) => void): FileSystem {
  return new Proxy(memory, {
    get(target, key) {
      if (key === "stat") {
        return async (path: string): Promise<FileStat | null> => {
          onStat?.(path);
          const stat = await target.stat(path);
          return stat && pinned.has(path) ? { ...stat, mtimeMs: pinned.get(path)! } : stat;
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as FileSystem;
}

/** `count` distinct ids sharing long prefixes: `0190ab` and eight letters of two, drawn from `seed`. */
export function collidingIds(count: number, seed: number): string[] {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const ids = new Set<string>();
  while (ids.size < count) {
    let tail = "";
    for (let i = 0; i < 8; i++) tail += (next() >> 16) % 2 ? "a" : "b";
    ids.add(`0190ab${tail}`);
  }
  return [...ids];
}
