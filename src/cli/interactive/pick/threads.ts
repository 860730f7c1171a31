/**
 * The picker's rows: flat, or threaded as pi's /resume draws them (forks under the session
 * they came from, by `parentSession`, each level newest subtree first, `├─`/`└─` prefixes).
 * @module
 */
import type { SessionInfo } from "../../../core/info/session-info.ts";

/** One picker row: a session and the tree prefix drawn before it. */
export interface PickRow {
  session: SessionInfo;
  prefix: string;
}

/** The children of a session without any. */
const NONE: readonly number[] = [];

/** Rows without nesting. */
export function flatRows(sessions: readonly SessionInfo[]): PickRow[] {
  return sessions.map((session) => ({ session, prefix: "" }));
}

/**
 * Sessions nested under their parent session. `pathKey` makes paths comparable (resolved
 * against the process cwd); a parent that is not in the list leaves its fork a root.
 *
 * The picker threads every session it holds each time its list changes (25,000 while it loads),
 * so the tree is kept in typed arrays by position in `sessions`, and only sessions that are some
 * session's parent get a path key and a list of children: the rows are all it allocates per session.
 *
 * @example
 * ```ts
 * // threadRows([parent, fork], (p) => p).map((r) => r.prefix) -> ["", "   └─ "]
 * ```
 */
export function threadRows(sessions: readonly SessionInfo[], pathKey: (path: string) => string): PickRow[] {
  const n = sessions.length;
  // Only the keys forks name as their parent are looked up: those of the other sessions are not kept.
  const wanted = new Set<string>();
  for (const session of sessions) if (session.parentSessionPath) wanted.add(pathKey(session.parentSessionPath));
  const byKey = new Map<string, number>();
  if (wanted.size > 0) {
    for (let i = 0; i < n; i++) {
      const key = pathKey(sessions[i].path);
      if (wanted.has(key)) byKey.set(key, i);
    }
  }
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const parentPath = sessions[i].parentSessionPath;
    const parent = parentPath ? byKey.get(pathKey(parentPath)) : undefined;
    // A session listed as its own ancestor would loop; it stays a root.
    if (parent !== undefined && parent !== i && !isAncestor(children, i, parent)) {
      const siblings = children.get(parent);
      if (siblings) siblings.push(i);
      else children.set(parent, [i]);
    } else roots.push(i);
  }
  const latest = new Float64Array(n);
  for (let i = 0; i < n; i++) latest[i] = sessions[i].modified.getTime();
  // Loops with stacks of their own, not recursion: a chain of forks may be any length. Every
  // session is a root or one parent's child, so each is on a stack once.
  if (children.size > 0) {
    const preorder = new Int32Array(n);
    let filled = 0;
    const pending = new Int32Array(n);
    pending.set(roots);
    for (let top = roots.length; top > 0;) {
      const node = pending[--top];
      preorder[filled++] = node;
      for (const child of children.get(node) ?? NONE) pending[top++] = child;
    }
    // Backwards, every child comes before its parent: a parent sees its children's final latest.
    for (let k = filled - 1; k >= 0; k--) {
      const node = preorder[k];
      for (const child of children.get(node) ?? NONE) latest[node] = Math.max(latest[node], latest[child]);
    }
  }
  const newestFirst = (a: number, b: number) => latest[b] - latest[a];
  roots.sort(newestFirst);
  for (const list of children.values()) list.sort(newestFirst);
  const rows: PickRow[] = [];
  // The rows to draw, last on top: session, depth, whether last of its siblings, and gutters.
  const todo = new Int32Array(n);
  const depths = new Int32Array(n);
  const lasts = new Uint8Array(n);
  const gutters: string[] = [];
  let top = 0;
  for (let i = roots.length - 1; i >= 0; i--) {
    todo[top] = roots[i];
    depths[top] = 0;
    lasts[top] = i === roots.length - 1 ? 1 : 0;
    gutters[top++] = "";
  }
  while (top > 0) {
    const node = todo[--top];
    const depth = depths[top];
    const last = lasts[top] === 1;
    const gutter = gutters[top];
    rows.push({ session: sessions[node], prefix: depth === 0 ? "" : gutter + (last ? "└─ " : "├─ ") });
    const list = children.get(node);
    if (!list) continue;
    // Below a root the gutter is blank; below a nested row it continues unless that row was last.
    const next = gutter + (depth > 0 && !last ? "│  " : "   ");
    for (let i = list.length - 1; i >= 0; i--) {
      todo[top] = list[i];
      depths[top] = depth + 1;
      lasts[top] = i === list.length - 1 ? 1 : 0;
      gutters[top++] = next;
    }
  }
  return rows;
}

/** Whether `of` is in the subtree under `node` as far as it is built. */
function isAncestor(children: ReadonlyMap<number, readonly number[]>, node: number, of: number): boolean {
  const stack = [...children.get(node) ?? NONE];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === of) return true;
    for (const child of children.get(next) ?? NONE) stack.push(child);
  }
  return false;
}
