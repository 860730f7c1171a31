/**
 * The rule of a refresh's `listedDirs`: which paths lie in directories that were listed in full.
 * @module
 */

/** A test for paths anywhere under one of `dirs` (the rule `listedDirs` follows). */
export function inDirs(dirs: readonly string[] = []): (path: string) => boolean {
  const prefixes = dirs.map((dir) => (dir.endsWith("/") ? dir : dir + "/"));
  return (path) => prefixes.some((prefix) => path.startsWith(prefix));
}
