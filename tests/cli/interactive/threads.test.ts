/**
 * `threadRows()`: forks nested under their parent, newest thread first, with no recursion over
 * how long a chain of forks is.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { threadRows } from "../../../src/cli/interactive/pick/threads.ts";
import type { SessionInfo } from "../../../src/core/info/session-info.ts";

function session(name: string, modified: number, parent?: string): SessionInfo {
  const path = `/s/${name}.jsonl`;
  return {
    path,
    id: name,
    cwd: "/w",
    ...(parent ? { parentSessionPath: `/s/${parent}.jsonl` } : {}),
    created: new Date(0),
    modified: new Date(modified),
    messageCount: 1,
    firstMessage: name,
    allMessagesText: "",
  };
}

test("threadRows() nests forks, newest thread first, with gutters", () => {
  const rows = threadRows([
    session("a", 10),
    session("b", 50),
    session("a1", 20, "a"),
    session("a2", 60, "a"),
    session("a2x", 5, "a2"),
    session("a1x", 30, "a1"),
  ], (p) => p);
  assert.deepEqual(rows.map((r) => `${r.prefix}${r.session.id}`), [
    "a",
    "   ├─ a2",
    "   │  └─ a2x",
    "   └─ a1",
    "      └─ a1x",
    "b",
  ]);
});

test("threadRows() of a chain of 100k forks does not overflow the stack", () => {
  const sessions = [session("f0", 0)];
  for (let i = 1; i < 100_000; i++) sessions.push(session(`f${i}`, i, `f${i - 1}`));
  const rows = threadRows(sessions, (p) => p);
  assert.equal(rows.length, 100_000);
  assert.equal(rows[0].session.id, "f0");
  assert.equal(rows[99_999].session.id, "f99999");
});

/** Threading as the picker describes it, written plainly (recursion, objects per node): the oracle. */
function referenceRows(sessions: SessionInfo[]): string[] {
  interface Node {
    session: SessionInfo;
    children: Node[];
    latest: number;
  }
  const byPath = new Map(sessions.map((s) => [s.path, { session: s, children: [], latest: s.modified.getTime() } as Node]));
  const under = (node: Node, of: Node): boolean => node.children.some((child) => child === of || under(child, of));
  const roots: Node[] = [];
  for (const s of sessions) {
    const node = byPath.get(s.path)!;
    const parent = s.parentSessionPath ? byPath.get(s.parentSessionPath) : undefined;
    if (parent && parent !== node && !under(node, parent)) parent.children.push(node);
    else roots.push(node);
  }
  const latest = (node: Node): number => Math.max(node.session.modified.getTime(), ...node.children.map(latest));
  const order = (nodes: Node[]) => nodes.map((node) => ({ node, latest: latest(node) })).sort((a, b) => b.latest - a.latest).map((x) => x.node);
  const out: string[] = [];
  const draw = (node: Node, depth: number, gutters: string, last: boolean) => {
    out.push(`${depth === 0 ? "" : gutters + (last ? "└─ " : "├─ ")}${node.session.id}`);
    const kids = order(node.children);
    const next = gutters + (depth > 0 && !last ? "│  " : "   ");
    kids.forEach((kid, i) => draw(kid, depth + 1, next, i === kids.length - 1));
  };
  const sorted = order(roots);
  sorted.forEach((root, i) => draw(root, 0, "", i === sorted.length - 1));
  return out;
}

test("threadRows() threads random forests of forks, loops and missing parents as the plain recursive threading does", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let round = 0; round < 200; round++) {
    const count = 1 + random(40);
    const sessions: SessionInfo[] = [];
    for (let i = 0; i < count; i++) {
      // Parents anywhere in the list (later ones too: loops), or missing; ties in time.
      const kind = random(4);
      const parent = kind === 0 ? undefined : kind === 1 ? `gone${i}` : `s${random(count)}`;
      sessions.push(session(`s${i}`, random(10), parent));
    }
    const rows = threadRows(sessions, (p) => p);
    assert.deepEqual(rows.map((r) => `${r.prefix}${r.session.id}`), referenceRows(sessions), `round ${round}`);
  }
});

test("threadRows() keeps a session that is its own ancestor a root", () => {
  const rows = threadRows([session("a", 1, "b"), session("b", 2, "a"), session("c", 3, "c")], (p) => p);
  assert.deepEqual(rows.map((r) => `${r.prefix}${r.session.id}`), ["c", "b", "   └─ a"]);
});
