/**
 * A memory file system that calls a hook before every operation and before every chunk of a
 * `writeAtomic`, so a test can act as another process at each point of a rewrite.
 * @module
 */
import type { FileSystem, WriteData } from "../../src/io/file-system.ts";
import type { MemoryFileSystem } from "../../src/io/memory.ts";

/** Called at each point with its number and, after the rename, the original's other name. */
export type Hook = (point: number, oldName: string | undefined) => Promise<void>;

/**
 * `inner`, with a hook before every operation and before every chunk of a `writeAtomic`; the
 * hook gets the running count of points passed, and, once the new file took the place of
 * `watched`, the other name the original still has (the rewrite's link to it).
 */
export class InjectingFileSystem implements FileSystem {
  readonly inner: MemoryFileSystem;
  points = 0;
  #linked: string | undefined;
  #oldName: string | undefined;
  #hook: Hook;
  #watched: string;

  constructor(inner: MemoryFileSystem, watched: string, hook: Hook) {
    this.inner = inner;
    this.#watched = watched;
    this.#hook = hook;
  }

  async #point(): Promise<void> {
    await this.#hook(this.points++, this.#oldName);
  }

  async *read(path: string, range?: Parameters<FileSystem["read"]>[1]) {
    await this.#point();
    yield* this.inner.read(path, range);
  }
  stat = async (path: string) => (await this.#point(), this.inner.stat(path));
  list = async (dir: string) => (await this.#point(), this.inner.list(dir));
  append: FileSystem["append"] = async (path, data, options) => (await this.#point(), this.inner.append(path, data, options));
  writeAtomic = async (path: string, data: WriteData, options?: Parameters<FileSystem["writeAtomic"]>[2]) => {
    await this.#point();
    const point = () => this.#point();
    async function* chunks() {
      if (data instanceof Uint8Array) {
        yield data;
        return;
      }
      for await (const chunk of data) {
        await point();
        yield chunk;
      }
    }
    await this.inner.writeAtomic(path, chunks(), options);
  };
  rename = async (from: string, to: string) => {
    await this.#point();
    await this.inner.rename(from, to);
    if (to === this.#watched) this.#oldName = this.#linked;
  };
  remove = async (path: string) => (await this.#point(), this.inner.remove(path));
  mkdir: FileSystem["mkdir"] = async (path, options) => (await this.#point(), this.inner.mkdir(path, options));
  link = async (existing: string, newPath: string) => {
    await this.#point();
    await this.inner.link(existing, newPath);
    this.#linked = newPath;
  };
  realPath = async (path: string) => (await this.#point(), this.inner.realPath(path));
}

