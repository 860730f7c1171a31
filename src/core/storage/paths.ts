/**
 * Just enough path arithmetic for session storage, without `node:path`: the core must
 * run on every runtime. POSIX separators, with `\` accepted as a separator on input.
 * @module
 */

/**
 * Joins path segments with `/`, collapsing repeated separators.
 *
 * @example
 * ```ts
 * joinPath("/a/", "", "b"); // "/a/b"
 * ```
 */
export function joinPath(...parts: string[]): string {
  // Listings join thousands of names: plain concatenation, and the regex only when needed.
  let joined = "";
  for (const part of parts) {
    if (part === "") continue;
    joined = joined === "" ? part : `${joined}/${part}`;
  }
  return joined.includes("//") ? joined.replace(/\/{2,}/g, "/") : joined;
}

/** True for `/x`, `\x` and `C:\x` / `C:/x`. */
export function isAbsolutePath(path: string): boolean {
  return /^([/\\]|[A-Za-z]:[/\\])/.test(path);
}

/** A `.` or `..` segment, a doubled separator, or a trailing one: what normalizing changes. */
const NOT_NORMAL = /(^|\/)\.\.?(\/|$)|\/\/|.\/$/;

/** Removes `.` and `..` segments and trailing separators (POSIX rules). */
export function normalizePath(path: string): string {
  // Most paths are normal already (listings resolve thousands): keep those as they are.
  if (path !== "" && !NOT_NORMAL.test(path)) return path;
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(part);
  }
  const body = out.join("/");
  return absolute ? "/" + body : body || ".";
}

/** `path` made absolute against `base` (like `path.resolve(base, path)`). */
export function resolvePath(base: string, path: string): string {
  return normalizePath(isAbsolutePath(path) ? path : joinPath(base, path));
}

/** Everything before the last separator. */
export function dirName(path: string): string {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return i < 0 ? "." : i === 0 ? "/" : path.slice(0, i);
}

/** Everything after the last separator. */
export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/** Expands a leading `~` or `~/` and turns a `file://` URL into a path; other paths stay as they are. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return joinPath(home, path.slice(2));
  if (path.startsWith("file://")) return decodeURIComponent(new URL(path).pathname);
  return path;
}

/** `path` with the home directory shown as `~`. */
export function tildePath(path: string, home: string): string {
  if (home && (path === home || path.startsWith(home + "/"))) return "~" + path.slice(home.length);
  return path;
}
