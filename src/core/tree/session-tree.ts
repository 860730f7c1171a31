/**
 * An index over a session's entries: lookup by id, the default leaf, paths, the tree
 * with labels, the session name and the leaves. Resolution follows pi 1.x rules.
 * @module
 */
import type { LabelEntry, SessionEntry, SessionInfoEntry, SessionTreeNode } from "../format/types.ts";
import { issue, type ReadIssue } from "../read/issue.ts";
import { walkToRoot, type WalkStop } from "./walk-path.ts";

function time(entry: SessionEntry): number {
  return new Date(entry.timestamp).getTime();
}

/**
 * @example
 * ```ts
 * const tree = new SessionTree([
 *   { type: "custom", id: "a", parentId: null, timestamp: "2024-01-01T00:00:00Z", customType: "x" },
 * ]);
 * tree.leafId; // "a"
 * ```
 */
export class SessionTree {
  readonly entries: readonly SessionEntry[];
  /** Later duplicates win, as in pi. */
  readonly byId: Map<string, SessionEntry> = new Map();
  /** The last entry in file order, or null for an empty session. */
  readonly leafId: string | null = null;
  readonly labels: Map<string, { label: string; timestamp: string }> = new Map();
  /** The latest `session_info` decides; an empty name clears. */
  readonly sessionName: string | undefined;
  #children: Map<string, SessionEntry[]> | undefined;

  constructor(entries: readonly SessionEntry[]) {
    this.entries = entries;
    let name: string | undefined;
    let leafId: string | null = null;
    for (const entry of entries) {
      this.byId.set(entry.id, entry);
      leafId = entry.id;
      if (entry.type === "label") {
        const { targetId, label } = entry as LabelEntry;
        // Like a name, a label that is not text clears: printing code relies on strings.
        if (typeof label === "string" && label) this.labels.set(targetId, { label, timestamp: entry.timestamp });
        else this.labels.delete(targetId);
      } else if (entry.type === "session_info") {
        const raw = (entry as SessionInfoEntry).name;
        name = typeof raw === "string" ? raw.trim() || undefined : undefined;
      }
    }
    this.leafId = leafId;
    this.sessionName = name;
  }

  getEntry(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  getLabel(id: string): string | undefined {
    return this.labels.get(id)?.label;
  }

  /** Root-to-leaf path. `null` gives []; an unknown or missing id falls back to the last entry. */
  getPath(leafId?: string | null): SessionEntry[] {
    return this.walk(leafId).path;
  }

  /** Like `getPath`, but also says why the walk stopped early, if it did. */
  walk(leafId?: string | null): { path: SessionEntry[]; stop?: WalkStop } {
    if (leafId === null) return { path: [] };
    const leaf = (leafId !== undefined ? this.byId.get(leafId) : undefined) ?? this.entries[this.entries.length - 1];
    return leaf ? walkToRoot(leaf, this.byId) : { path: [] };
  }

  /** Direct children of an entry, in file order. */
  getChildren(id: string): SessionEntry[] {
    if (!this.#children) {
      this.#children = new Map();
      for (const entry of this.byId.values()) {
        if (entry.parentId === null || entry.parentId === entry.id) continue;
        const list = this.#children.get(entry.parentId);
        if (list) list.push(entry);
        else this.#children.set(entry.parentId, [entry]);
      }
    }
    return this.#children.get(id) ?? [];
  }

  /** Entries with no children: the ends of every branch. */
  leaves(): SessionEntry[] {
    const parents = new Set<string>();
    for (const entry of this.byId.values()) if (entry.parentId !== null) parents.add(entry.parentId);
    return [...this.byId.values()].filter((entry) => !parents.has(entry.id));
  }

  /**
   * The forest: roots are entries with no parent, a self-parent or a missing parent.
   * Members of a parent cycle (unreachable from any root) hang under the first of them in file order.
   */
  getTree(): SessionTreeNode[] {
    const nodes = new Map<string, SessionTreeNode>();
    for (const entry of this.byId.values()) {
      const label = this.labels.get(entry.id);
      nodes.set(entry.id, { entry, children: [], label: label?.label, labelTimestamp: label?.timestamp });
    }
    const roots: SessionTreeNode[] = [];
    for (const node of nodes.values()) {
      const { id, parentId } = node.entry;
      const parent = parentId === null || parentId === id ? undefined : nodes.get(parentId);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    const reached = new Set<SessionTreeNode>();
    const sortAll = (starts: SessionTreeNode[]) => {
      const stack = [...starts];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (reached.has(node)) continue;
        reached.add(node);
        node.children.sort((a, b) => time(a.entry) - time(b.entry));
        // A loop, not push(...children): a spread of 200k+ arguments overflows the stack.
        for (const child of node.children) stack.push(child);
      }
    };
    sortAll(roots);
    if (reached.size < nodes.size) {
      for (const node of nodes.values()) {
        if (reached.has(node)) continue;
        // Cut the cycle: detach this node from its parent and make it a root.
        const parent = nodes.get(node.entry.parentId!);
        if (parent) parent.children = parent.children.filter((child) => child !== node);
        roots.push(node);
        sortAll([node]);
      }
    }
    return roots;
  }

  /** Structural problems: self-parents, cycles, missing parents, duplicate ids, labels on nothing. */
  findIssues(entryLines?: readonly number[]): ReadIssue[] {
    const issues: ReadIssue[] = [];
    // The line of an entry, by entry: only needed for a cycle, so made only then.
    let lines: Map<SessionEntry, number> | undefined;
    const lineOf = (entry: SessionEntry) => {
      lines ??= new Map(this.entries.map((e, i) => [e, entryLines?.[i] ?? 0]));
      return lines.get(entry) ?? 0;
    };
    const seen = new Set<string>();
    for (let i = 0; i < this.entries.length; i++) {
      const entry = this.entries[i];
      const line = entryLines?.[i] ?? 0;
      // Without these fields the checks below would compare undefined with undefined.
      if (typeof entry.id !== "string") {
        issues.push(issue(line, "missing-field", `Entry on line ${line} has no string "id" field`));
        continue;
      }
      if (seen.has(entry.id)) {
        issues.push(issue(line, "duplicate-id", `Entry id "${entry.id}" appears more than once; the later line wins`, entry.id));
      }
      seen.add(entry.id);
      if (entry.parentId === undefined) {
        issues.push(issue(line, "missing-field", `Entry "${entry.id}" has no "parentId" field; it is treated as a root`, entry.id));
      } else if (entry.parentId === entry.id) {
        issues.push(issue(line, "self-parent", `Entry "${entry.id}" names itself as its parent`, entry.id));
      } else if (entry.parentId !== null && !this.byId.has(entry.parentId)) {
        issues.push(issue(line, "missing-parent", `Entry "${entry.id}" has parent "${entry.parentId}", which is not in the file`, entry.id));
      }
      if (entry.type === "label" && !this.byId.has((entry as LabelEntry).targetId)) {
        issues.push(issue(line, "label-target-missing", `Label entry "${entry.id}" targets "${(entry as LabelEntry).targetId}", which is not in the file`, entry.id));
      }
    }
    // One pass, linear: walk up from each entry until reaching something already settled.
    const state = new Map<string, 1 | 2>(); // 1 = on the current walk, 2 = settled
    for (const start of this.byId.values()) {
      const walked: SessionEntry[] = [];
      let current: SessionEntry | undefined = start;
      while (current && !state.has(current.id)) {
        state.set(current.id, 1);
        walked.push(current);
        const parentId: string | null | undefined = current.parentId;
        if (parentId === null || parentId === undefined || parentId === current.id) break;
        const parent = this.byId.get(parentId);
        if (parent && state.get(parent.id) === 1) {
          issues.push(issue(lineOf(current), "cycle", `Entry "${current.id}" has parent "${parent.id}", which leads back to it (a parent cycle)`, current.id));
          break;
        }
        current = parent;
      }
      for (const entry of walked) state.set(entry.id, 2);
    }
    return issues.sort((a, b) => a.line - b.line);
  }
}
