/**
 * File systems for tests that play pi (which writes without our lock) at chosen moments: one
 * with some operations replaced, one that runs a step before every operation.
 * @module
 */
import type { FileSystem } from "../../src/io/file-system.ts";

/** `inner` with some of its methods replaced. */
export function wrap(inner: FileSystem, overrides: Partial<FileSystem>): FileSystem {
  return {
    read: (p, range) => inner.read(p, range),
    stat: (p) => inner.stat(p),
    list: (d) => inner.list(d),
    append: (p, data, options) => inner.append(p, data, options),
    writeAtomic: (p, data, options) => inner.writeAtomic(p, data, options),
    rename: (a, b) => inner.rename(a, b),
    remove: (p) => inner.remove(p),
    mkdir: (p, options) => inner.mkdir(p, options),
    link: (a, b) => inner.link(a, b),
    realPath: (p) => inner.realPath(p),
    ...overrides,
  };
}

/** `inner` with `before` awaited before each operation (a read: before its first chunk). */
export function beforeEach(inner: FileSystem, before: () => Promise<void>): FileSystem {
  return {
    read: (p, range) => (async function* () {
      await before();
      yield* inner.read(p, range);
    })(),
    stat: async (p) => (await before(), inner.stat(p)),
    list: async (d) => (await before(), inner.list(d)),
    append: async (p, data, options) => (await before(), inner.append(p, data, options)),
    writeAtomic: async (p, data, options) => (await before(), inner.writeAtomic(p, data, options)),
    rename: async (a, b) => (await before(), inner.rename(a, b)),
    remove: async (p) => (await before(), inner.remove(p)),
    mkdir: async (p, options) => (await before(), inner.mkdir(p, options)),
    link: async (a, b) => (await before(), inner.link(a, b)),
    realPath: async (p) => (await before(), inner.realPath(p)),
  };
}
