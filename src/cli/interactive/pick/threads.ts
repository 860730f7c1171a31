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
  const latest = (node: Node): number => {
    for (const child of node.children) node.latest = Math.max(node.latest, latest(child));
    return node.latest;
  };
  const order = (nodes: Node[]) => {
    nodes.sort((a, b) => b.latest - a.latest);
    for (const node of nodes) order(node.children);
  };
  roots.forEach(latest);
  order(roots);
  const rows: PickRow[] = [];
  const walk = (node: Node, depth: number, gutters: string, last: boolean) => {
    rows.push({ session: node.session, prefix: depth === 0 ? "" : gutters + (last ? "└─ " : "├─ ") });
    // Below a root the gutter is blank; below a nested row it continues unless that row was last.
    const next = gutters + (depth > 0 && !last ? "│  " : "   ");
    node.children.forEach((child, i) => walk(child, depth + 1, next, i === node.children.length - 1));
  };
  roots.forEach((root, i) => walk(root, 0, "", i === roots.length - 1));
  return rows;
}

function isAncestor(node: Node, of: Node): boolean {
  const stack = [...node.children];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === of) return true;
    stack.push(...next.children);
  }
  return false;
}
