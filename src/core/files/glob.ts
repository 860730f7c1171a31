/**
 * Path globs for `files`: `*` (any characters but `/`), `?` (one character but `/`), `**` as a
 * whole segment (any number of folders, none included) and `{a,b}` (either; nested, may hold
 * `/` and globs). Dot files match like any other name. `[` and `]` are plain characters
 * (folders such as `app/[id]/` are common), and so is a `{…}` without a comma.
 * A path matches when it, or a folder above it, matches the whole glob: a glob picks files and
 * folders the way a plain path does, and a folder stands for everything under it.
 * @module
 */

/** For each `{` that opens an alternation (a matching `}` with a comma at its level): where it closes. */
function braceGroups(pattern: string): Map<number, number> {
  const groups = new Map<number, number>();
  const open: { at: number; comma: boolean }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "{") open.push({ at: i, comma: false });
    else if (ch === "," && open.length > 0) open[open.length - 1].comma = true;
    else if (ch === "}" && open.length > 0) {
      const group = open.pop()!;
      if (group.comma) groups.set(group.at, i);
    }
  }
  return groups;
}

/**
 * True when `pattern` holds glob syntax: `*`, `?`, or a `{a,b}` alternation.
 *
 * @example
 * ```ts
 * isGlob("src/**\/*.ts"); // true
 * isGlob("app/[id]/page.tsx"); // false
 * ```
 */
export function isGlob(pattern: string): boolean {
  return pattern.includes("*") || pattern.includes("?") || braceGroups(pattern).size > 0;
}

const SPECIAL = /[\\^$.|+()[\]{}]/;

/** The regular expression source of `pattern` (without anchors). */
function globSource(pattern: string): string {
  const groups = braceGroups(pattern);
  // The `}` of each open alternation, innermost last: a `,` before it is a `|`.
  const closes: number[] = [];
  let out = "";
  // A segment starts at the pattern's start, after `/`, and at the start of an alternative.
  const segmentStart = (i: number) => i === 0 || pattern[i - 1] === "/" || groups.has(i - 1) || (closes.length > 0 && pattern[i - 1] === ",");
  const segmentEnd = (i: number) => i === pattern.length || pattern[i] === "/" || (closes.length > 0 && (pattern[i] === "," || i === closes[closes.length - 1]));
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "*") {
      let end = i;
      while (pattern[end + 1] === "*") end++;
      if (end > i && segmentStart(i) && segmentEnd(end + 1)) {
        // `**/` is any number of folders, none included; a `**` that ends the glob or an
        // alternative is anything at all.
        if (pattern[end + 1] === "/") {
          out += "(?:[^/]*/)*";
          i = end + 1;
        } else {
          out += ".*";
          i = end;
        }
      } else {
        out += "[^/]*";
        i = end;
      }
    } else if (ch === "?") out += "[^/]";
    else if (groups.has(i)) {
      closes.push(groups.get(i)!);
      out += "(?:";
    } else if (closes.length > 0 && i === closes[closes.length - 1]) {
      closes.pop();
      out += ")";
    } else if (ch === "," && closes.length > 0) out += "|";
    else out += SPECIAL.test(ch) ? `\\${ch}` : ch;
  }
  return out;
}

/**
 * A test for paths against `pattern`, both absolute (resolve a relative glob first): true when
 * the path or a folder above it matches the whole glob.
 *
 * @example
 * ```ts
 * const match = globMatcher("/app/src/**\/*.{ts,tsx}");
 * match("/app/src/a/b.tsx"); // true
 * match("/app/src/a/b.js"); // false
 * globMatcher("/app/src/*")("/app/src/a/b.js"); // true: /app/src/a matches
 * ```
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  const regex = new RegExp(`^${globSource(pattern)}(?:/.*)?$`, "s");
  return (path) => regex.test(path);
}
