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

interface Node {
  session: SessionInfo;
  children: Node[];
  latest: number;
}

/** Rows without nesting. */
export function flatRows(sessions: readonly SessionInfo[]): PickRow[] {
  return sessions.map((session) => ({ session, prefix: "" }));
}

/**
 * Sessions nested under their parent session. `pathKey` makes paths comparable (resolved
 * against the process cwd); a parent that is not in the list leaves its fork a root.
 *
 * @example
 * ```ts
 * // threadRows([parent, fork], (p) => p).map((r) => r.prefix) -> ["", "   └─ "]
 * ```
 */
export function threadRows(sessions: readonly SessionInfo[], pathKey: (path: string) => string): PickRow[] {
  const byPath = new Map<string, Node>();
  for (const session of sessions) byPath.set(pathKey(session.path), { session, children: [], latest: session.modified.getTime() });
  const roots: Node[] = [];
  for (const session of sessions) {
    const node = byPath.get(pathKey(session.path))!;
    const parent = session.parentSessionPath ? byPath.get(pathKey(session.parentSessionPath)) : undefined;
    // A session listed as its own ancestor would loop; it stays a root.
    if (parent && parent !== node && !isAncestor(node, parent)) parent.children.push(node);
    else roots.push(node);
  }
  // Loops with stacks of their own, not recursion: a chain of forks may be any length.
  const preorder: Node[] = [];
  for (const stack = [...roots]; stack.length > 0;) {
    const node = stack.pop()!;
    preorder.push(node);
    for (const child of node.children) stack.push(child);
  }
  // Backwards, every child comes before its parent: a parent sees its children's final latest.
  for (let i = preorder.length - 1; i >= 0; i--) {
    const node = preorder[i];
    for (const child of node.children) node.latest = Math.max(node.latest, child.latest);
  }
  const newestFirst = (a: Node, b: Node) => b.latest - a.latest;
  roots.sort(newestFirst);
  for (const node of preorder) node.children.sort(newestFirst);
  const rows: PickRow[] = [];
  const todo: { node: Node; depth: number; gutters: string; last: boolean }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) todo.push({ node: roots[i], depth: 0, gutters: "", last: i === roots.length - 1 });
  while (todo.length > 0) {
    const { node, depth, gutters, last } = todo.pop()!;
    rows.push({ session: node.session, prefix: depth === 0 ? "" : gutters + (last ? "└─ " : "├─ ") });
    // Below a root the gutter is blank; below a nested row it continues unless that row was last.
    const next = gutters + (depth > 0 && !last ? "│  " : "   ");
    const { children } = node;
    for (let i = children.length - 1; i >= 0; i--) todo.push({ node: children[i], depth: depth + 1, gutters: next, last: i === children.length - 1 });
  }
  return rows;
}

function isAncestor(node: Node, of: Node): boolean {
  const stack = [...node.children];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === of) return true;
    for (const child of next.children) stack.push(child);
  }
  return false;
}
