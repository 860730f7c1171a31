/**
 * A session's tree as index arrays, for sessions of 100k+ entries: what `SessionTree` answers
 * about the forest (`getTree`'s roots and sorted children, the leaf, labels, the number of
 * `findIssues` problems), from one map of ids and arrays of numbers instead of a node object,
 * a children list and several maps and sets per entry.
 * @module
 */
import type { LabelEntry, SessionEntry } from "../format/types.ts";

function time(entry: SessionEntry): number {
  return new Date(entry.timestamp).getTime();
}

/**
 * The nodes are the entries by id (later duplicates win) in the order of their ids' first
 * lines, as `SessionTree.byId` holds them; node `i` is `nodes[i]`.
 *
 * @example
 * ```ts
 * const forest = new EntryForest([
 *   { type: "custom", id: "a", parentId: null, timestamp: "2024-01-01T00:00:00Z", customType: "x" },
 *   { type: "custom", id: "b", parentId: "a", timestamp: "2024-01-01T00:00:01Z", customType: "x" },
 * ] as never);
 * forest.childrenOf(0); // [1]
 * ```
 */
export class EntryForest {
  readonly nodes: SessionEntry[] = [];
  /** Each node's index, by entry id. */
  readonly index: Map<unknown, number> = new Map();
  /** The last entry's id in file order (null for none), as `SessionTree.leafId`. */
  readonly leafId: string | null;
  /** Each node's parent in the forest, or -1 for a root (a cycle is cut where `getTree` cuts it). */
  readonly parent: Int32Array;
  /** The forest's roots, in `getTree`'s order. */
  readonly roots: number[] = [];
  /** Labels by target id, as `SessionTree.labels`. */
  readonly labels: Map<string, { label: string; timestamp: string }> = new Map();
  /** How many problems `SessionTree.findIssues` finds. */
  readonly issueCount: number;
  /** Node i's children are `#kids[#first[i]]` to `#kids[#first[i] + #count[i] - 1]`. */
  readonly #first: Int32Array;
  readonly #count: Int32Array;
  readonly #kids: Int32Array;

  constructor(entries: readonly SessionEntry[]) {
    const { nodes, index } = this;
    // Each entry's node: the problems of an entry are counted in file order below.
    const nodeOf = new Int32Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      let node = index.get(entry.id);
      if (node === undefined) {
        node = nodes.length;
        index.set(entry.id, node);
        nodes.push(entry);
      } else nodes[node] = entry;
      nodeOf[i] = node;
      if (entry.type === "label") {
        const { targetId, label } = entry as LabelEntry;
        if (typeof label === "string" && label) this.labels.set(targetId, { label, timestamp: entry.timestamp });
        else this.labels.delete(targetId);
      }
    }
    this.leafId = entries.length > 0 ? entries[entries.length - 1].id : null;
    const size = nodes.length;
    // The entry's own link: the node its parentId names (-1: none, itself, or not in the file).
    const link = new Int32Array(size);
    const count = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      const { id, parentId } = nodes[i];
      // Most entries follow their parent: no lookup for those.
      const at = parentId === null || parentId === id ? undefined : i > 0 && parentId === nodes[i - 1].id ? i - 1 : index.get(parentId);
      link[i] = at ?? -1;
      if (at === undefined) this.roots.push(i);
      else count[at]++;
    }
    this.issueCount = this.#entryProblems(entries, nodeOf, link) + cycles(nodes, link);
    const first = new Int32Array(size);
    for (let i = 1; i < size; i++) first[i] = first[i - 1] + count[i - 1];
    const kids = new Int32Array(size);
    const filled = new Int32Array(size);
    for (let i = 0; i < size; i++) if (link[i] >= 0) kids[first[link[i]] + filled[link[i]]++] = i;
    this.parent = link;
    this.#first = first;
    this.#count = count;
    this.#kids = kids;
    this.#sort();
  }

  /** A node's children, in `getTree`'s order. */
  childrenOf(node: number): Int32Array {
    return this.#kids.subarray(this.#first[node], this.#first[node] + this.#count[node]);
  }

  /** Every entry id, in the order of the nodes (`SessionTree.byId.keys()`). */
  ids(): string[] {
    return [...this.index.keys()] as string[];
  }

  /**
   * Children sorted by time (stably, from file order) when a walk from the roots first reaches
   * their parent; a node no root reaches is in or under a cycle: the first such node is cut
   * from its parent and becomes a root, and so on, as `getTree` does.
   */
  #sort(): void {
    const size = this.nodes.length;
    const reached = new Uint8Array(size);
    let reachedCount = 0;
    const sortAll = (start: number) => {
      const stack = [start];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (reached[node]) continue;
        reached[node] = 1;
        reachedCount++;
        const kids = this.childrenOf(node);
        if (kids.length > 1) kids.set(Array.from(kids).sort((a, b) => time(this.nodes[a]) - time(this.nodes[b])));
        for (let k = 0; k < kids.length; k++) stack.push(kids[k]);
      }
    };
    for (const root of this.roots) sortAll(root);
    for (let i = 0; i < size && reachedCount < size; i++) {
      if (reached[i]) continue;
      const from = this.parent[i];
      const kids = this.childrenOf(from);
      const at = kids.indexOf(i);
      kids.copyWithin(at, at + 1);
      this.#count[from]--;
      this.parent[i] = -1;
      this.roots.push(i);
      sortAll(i);
    }
  }

  /** The problems of single entries `findIssues` finds: no id, a repeated id, bad links, labels on nothing. */
  #entryProblems(entries: readonly SessionEntry[], nodeOf: Int32Array, link: Int32Array): number {
    let problems = 0;
    const seen = new Uint8Array(this.nodes.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (typeof entry.id !== "string") {
        problems++;
        continue;
      }
      const node = nodeOf[i];
      if (seen[node]) problems++;
      seen[node] = 1;
      const { id, parentId } = entry;
      if (parentId === undefined || parentId === id) problems++;
      else if (parentId !== null) {
        // The last entry of an id has its link made; an earlier one is looked up.
        const found = this.nodes[node] === entry ? link[node] >= 0 : this.index.has(parentId);
        if (!found) problems++;
      }
      if (entry.type === "label" && !this.index.has((entry as LabelEntry).targetId)) problems++;
    }
    return problems;
  }
}

/** How many parent cycles `findIssues` reports: walks up from each node until something settled. */
function cycles(nodes: readonly SessionEntry[], link: Int32Array): number {
  let found = 0;
  // 1: on the current walk, 2: settled.
  const state = new Uint8Array(nodes.length);
  const walked: number[] = [];
  for (let start = 0; start < nodes.length; start++) {
    walked.length = 0;
    for (let node = start; node >= 0 && state[node] === 0;) {
      state[node] = 1;
      walked.push(node);
      const { id, parentId } = nodes[node];
      if (parentId === null || parentId === undefined || parentId === id) break;
      const parent = link[node];
      if (parent >= 0 && state[parent] === 1) {
        found++;
        break;
      }
      node = parent;
    }
    for (const node of walked) state[node] = 2;
  }
  return found;
}
