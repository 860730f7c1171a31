/**
 * Shared pieces for the SessionManager tests: pinned clock and ids, message builders, a
 * memory file system that fails on demand, and small file helpers.
 * @module
 */
import type { AgentMessage, Usage } from "../../src/core/format/types.ts";
import type { StorageEnv } from "../../src/core/storage/layout.ts";
import type { AppendOptions, AtomicWriteOptions, FileSystem, ReadRange, WriteData } from "../../src/io/file-system.ts";
import { FsError } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import type { SessionManagerOptions } from "../../src/session/session-options.ts";

export const T0_MS = Date.parse("2024-01-01T00:00:00.000Z");

/** ISO time `seconds` after T0. */
export function at(seconds: number): string {
  return new Date(T0_MS + seconds * 1000).toISOString();
}

/** A storage environment that never looks at the real process. */
export const storage: StorageEnv = { env: () => undefined, home: "/home/u", processCwd: "/work" };

/**
 * Options with a clock that ticks one second per call (first call: T0 + 1 s), entry ids
 * `e0000001`, `e0000002`, … and session ids `s1`, `s2`, ….
 */
export function pinned(fs: FileSystem, extra: SessionManagerOptions = {}): SessionManagerOptions {
  let tick = 0;
  let entry = 0;
  let session = 0;
  return {
    fs,
    storage,
    agentDir: "/agent",
    clock: () => new Date(T0_MS + ++tick * 1000),
    newId: () => `e${(++entry).toString().padStart(7, "0")}`,
    newSessionId: () => `s${++session}`,
    ...extra,
  };
}

export const usage: Usage = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export function user(text: string, timestamp = 1): AgentMessage {
  return { role: "user", content: text, timestamp };
}

export function assistant(text: string, model = "claude", timestamp = 2): AgentMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model,
    usage,
    stopReason: "stop",
    timestamp,
  };
}

export function system(text: string, timestamp = 0): AgentMessage {
  return { role: "system", content: text, timestamp };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The file's text, or null when there is no file. */
export async function readText(fs: FileSystem, path: string): Promise<string | null> {
  if (await fs.stat(path) === null) return null;
  let text = "";
  for await (const chunk of fs.read(path)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** The parsed lines of a session file. */
export async function readLines(fs: FileSystem, path: string): Promise<Record<string, unknown>[]> {
  const text = (await readText(fs, path)) ?? "";
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** A `MemoryFileSystem` whose writes throw while `failWrites` is set, and which counts them. */
export class FlakyFileSystem implements FileSystem {
  readonly inner: MemoryFileSystem;
  failWrites = false;
  appends: { path: string; data: string; options?: AppendOptions }[] = [];
  /** Paths written whole (successfully), and the options of each write. */
  atomicWrites: string[] = [];
  atomicOptions: (AtomicWriteOptions | undefined)[] = [];

  constructor(inner = new MemoryFileSystem()) {
    this.inner = inner;
  }

  read(path: string, range?: ReadRange): AsyncIterable<Uint8Array> {
    return this.inner.read(path, range);
  }

  stat(path: string) {
    return this.inner.stat(path);
  }

  list(dir: string) {
    return this.inner.list(dir);
  }

  async append(path: string, data: Uint8Array, options?: AppendOptions): Promise<void> {
    if (this.failWrites) throw new FsError("Other", path, `Cannot append to ${path}: disk full`);
    this.appends.push({ path, data: decoder.decode(data), options });
    return this.inner.append(path, data, options);
  }

  async writeAtomic(path: string, data: WriteData, options?: AtomicWriteOptions): Promise<void> {
    if (this.failWrites) throw new FsError("Other", path, `Cannot write ${path}: disk full`);
    await this.inner.writeAtomic(path, data, options);
    this.atomicWrites.push(path);
    this.atomicOptions.push(options);
  }

  rename(from: string, to: string) {
    return this.inner.rename(from, to);
  }

  remove(path: string) {
    return this.inner.remove(path);
  }

  mkdir(path: string, options?: { recursive?: boolean }) {
    return this.inner.mkdir(path, options);
  }

  async link(existing: string, newPath: string): Promise<void> {
    if (this.failWrites) throw new FsError("Other", newPath, `Cannot link ${newPath}: disk full`);
    return this.inner.link(existing, newPath);
  }

  realPath(path: string) {
    return this.inner.realPath(path);
  }

  /** Appends to session files (lock directories aside). */
  sessionAppends(): { path: string; data: string; options?: AppendOptions }[] {
    return this.appends.filter((a) => a.path.endsWith(".jsonl"));
  }
}
