/**
 * The file system as the server sees it: reading only under the folders it serves (the session
 * folder, pi's agent folder for settings, the catalog's cache), judged by where a path really
 * leads, so neither `..`, an absolute path nor a symbolic link inside a session folder pointing
 * elsewhere lets a request read another file. Writes go only to the cache.
 * @module
 */
import { FsError, type FileSystem } from "../io/file-system.ts";

/** True when `path` is `root` or inside it (both absolute, `/` or `\` separated). */
export function isInside(path: string, root: string): boolean {
  const trimmed = root.replace(/[/\\]+$/, "");
  return path === trimmed || path.startsWith(trimmed + "/") || path.startsWith(trimmed + "\\");
}

function refused(path: string): FsError {
  return new FsError("NotFound", path, `Cannot read "${path}": outside the served folders`);
}

/**
 * `fs` confined to `readRoots` for reading and `writeRoots` for writing. Paths that do not exist
 * pass through (the adapter answers NotFound); a path whose real location (links resolved)
 * is outside the roots is reported as not found, and nothing of it is read.
 */
export function confinedFileSystem(fs: FileSystem, readRoots: readonly string[], writeRoots: readonly string[]): FileSystem {
  // Roots may be links themselves (/tmp → /private/tmp): their real locations count too, looked up once.
  const realRoots = new Map<readonly string[], Promise<string[]>>();
  const withReal = (roots: readonly string[]) => {
    let found = realRoots.get(roots);
    if (!found) realRoots.set(roots, found = Promise.all(roots.map((root) => fs.realPath(root).catch(() => root))).then((real) => [...roots, ...real]));
    return found;
  };
  const resolved = async (path: string, roots: readonly string[]): Promise<boolean> => {
    let real: string;
    try {
      real = await fs.realPath(path);
    } catch {
      // Nothing there (yet): allowed if the path as written is inside (a cache file about to be made).
      return roots.some((root) => isInside(path, root));
    }
    return (await withReal(roots)).some((root) => isInside(real, root));
  };
  const guard = async (path: string, roots: readonly string[]) => {
    if (!(await resolved(path, roots))) throw refused(path);
  };
  return {
    async *read(path, range) {
      await guard(path, readRoots);
      yield* fs.read(path, range);
    },
    async stat(path) {
      return (await resolved(path, readRoots)) ? fs.stat(path) : null;
    },
    async list(dir) {
      await guard(dir, readRoots);
      return fs.list(dir);
    },
    append: async (path, data, options) => (await guard(path, writeRoots), fs.append(path, data, options)),
    writeAtomic: async (path, data, options) => (await guard(path, writeRoots), fs.writeAtomic(path, data, options)),
    rename: async (from, to) => (await guard(from, writeRoots), await guard(to, writeRoots), fs.rename(from, to)),
    remove: async (path) => (await guard(path, writeRoots), fs.remove(path)),
    mkdir: async (path, options) => (await guard(path, writeRoots), fs.mkdir(path, options)),
    link: async (existing, newPath) => (await guard(existing, writeRoots), await guard(newPath, writeRoots), fs.link(existing, newPath)),
    realPath: (path) => fs.realPath(path),
    ...(fs.watch ? { watch: fs.watch.bind(fs) } : {}),
  };
}
