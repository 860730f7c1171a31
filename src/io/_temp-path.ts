/**
 * Names the temporary sibling that `writeAtomic` writes before renaming it over the target.
 * Pure string work, shared by the node, deno and bun adapters.
 * @module
 */

/**
 * The temp file path (`.<base>.<random>.tmp`, same directory as `path`) and that directory.
 * Both `/` and `\` count as separators; on POSIX a `\` in a name only misdirects the
 * best-effort directory fsync, never the temp file itself.
 */
export function siblingTempPath(path: string): { temp: string; dir: string } {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1;
  const prefix = path.slice(0, cut);
  const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("");
  return {
    temp: `${prefix}.${path.slice(cut)}.${random}.tmp`,
    dir: cut === 0 ? "." : cut === 1 ? prefix : prefix.slice(0, -1),
  };
}
