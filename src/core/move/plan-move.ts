/**
 * `move`, decided purely: after a project folder is renamed, which sessions belong to it (its
 * own and, unless `exact`, its subfolders'), where pi will look for each under its new cwd,
 * and the new header bytes (`cwd`, and `parentSession` when the parent moves too). pi keys a
 * session folder by the exact cwd, so every session keeps its place relative to the project.
 * @module
 */
import { parseSpan, replaceSpan, valueSpan } from "../repair/json-spans.ts";
import { encodeCwd } from "../storage/layout.ts";
import { baseName, joinPath, normalizePath } from "../storage/paths.ts";

/** A session file found, with what its header says. */
export interface FoundSession {
  path: string;
  cwd: string;
  parentSession?: string;
}

/** Where and what to move. */
export interface MoveOptions {
  /** The project folder's old and new absolute paths. */
  from: string;
  to: string;
  /** Only sessions whose cwd is `from` itself, not its subfolders'. */
  exact: boolean;
  /** The session folder pi uses for a cwd; null for a flat custom session dir (files stay put). */
  folderFor: ((cwd: string) => string) | null;
}

/** One file's move: `from` and `to` are equal when only its header changes. */
export interface PlannedMove {
  from: string;
  to: string;
  oldCwd: string;
  newCwd: string;
  /** The header's new `parentSession`, when its parent file moves too. */
  parentSession?: string;
}

/**
 * `cwd` with the project folder `from` renamed to `to`, or null when it is not in it.
 *
 * @example
 * ```ts
 * mapCwd("/w/app/web", "/w/app", "/w/app2", false); // "/w/app2/web"
 * mapCwd("/w/apple", "/w/app", "/w/app2", false); // null
 * ```
 */
export function mapCwd(cwd: string, from: string, to: string, exact: boolean): string | null {
  const path = normalizePath(cwd);
  if (path === from) return to;
  if (exact || !path.startsWith(from === "/" ? "/" : from + "/")) return null;
  return joinPath(to, path.slice(from.length));
}

/**
 * The names, among `folders` (those of `<agentDir>/sessions`), that can hold sessions of `from`
 * (or its subfolders) or of `to` (a move cut short is finished). The cwd encoding is lossy
 * (`/a/b` and `/a-b` share `--a-b--`), so headers decide; this only narrows the reading.
 */
export function candidateFolders(folders: readonly string[], from: string, to: string, exact: boolean): string[] {
  const matches = (name: string, cwd: string) => {
    const own = encodeCwd(cwd);
    return name === own || (!exact && name.startsWith(own.slice(0, -2) + "-"));
  };
  return folders.filter((name) => matches(name, from) || matches(name, to)).sort();
}

/** The moves for the sessions found: those whose cwd lies in `from`, each once, in path order. */
export function planMoves(sessions: readonly FoundSession[], options: MoveOptions): PlannedMove[] {
  const moves: PlannedMove[] = [];
  for (const s of [...sessions].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const newCwd = mapCwd(s.cwd, options.from, options.to, options.exact);
    if (newCwd === null) continue;
    const to = options.folderFor === null ? s.path : joinPath(options.folderFor(newCwd), baseName(s.path));
    moves.push({ from: s.path, to, oldCwd: s.cwd, newCwd });
  }
  const movedTo = new Map(moves.map((m) => [m.from, m.to]));
  for (const m of moves) {
    const parent = sessions.find((s) => s.path === m.from)?.parentSession;
    const newParent = parent === undefined ? undefined : movedTo.get(parent);
    if (newParent !== undefined && newParent !== parent) m.parentSession = newParent;
  }
  return moves;
}

const encoder = new TextEncoder();

/**
 * The file's bytes with the header's `cwd` (and `parentSession`, when given) set; every other
 * byte as it was. Null when the first line is not a JSON object with such a field to change.
 */
export function rewriteHeader(bytes: Uint8Array, values: { cwd: string; parentSession?: string }): Uint8Array | null {
  const newline = bytes.indexOf(0x0a);
  let header = bytes.subarray(0, newline < 0 ? bytes.length : newline);
  const rest = bytes.subarray(header.length);
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const span = valueSpan(header, key);
    if (span === null) return null;
    header = replaceSpan(header, span, encoder.encode(JSON.stringify(value)));
  }
  // Only a header that still parses, to exactly these values, is written back.
  const parsed = parseSpan(header, 0, header.length) as Record<string, unknown> | undefined;
  if (typeof parsed !== "object" || parsed === null || Object.entries(values).some(([k, v]) => v !== undefined && parsed[k] !== v)) return null;
  const out = new Uint8Array(header.length + rest.length);
  out.set(header, 0);
  out.set(rest, header.length);
  return out;
}
