/**
 * What `SessionManager` looks things up in, kept up to date one entry at a time: entries by
 * id, children by parent, resolved labels and name (pi 1.6 rules), and whether a
 * conversation has started. Each `add` returns its own undo, for rolling back a failed write.
 * @module
 */
import type { LabelEntry, MessageEntry, SessionEntry, SessionInfoEntry } from "../core/format/types.ts";

/** A resolved label: the text and the time of the label entry that set it. */
export interface ResolvedLabel {
  label: string;
  timestamp: string;
}

function isConversation(entry: SessionEntry): boolean {
  if (entry.type !== "message") return false;
  const role = (entry as MessageEntry).message?.role;
  return role === "user" || role === "assistant";
}

/**
 * @example
 * ```ts
 * const index = new EntryIndex();
 * const undo = index.add({ type: "session_info", id: "a", parentId: null, timestamp: "t", name: " x " });
 * index.sessionName; // "x"
 * undo();
 * index.sessionName; // undefined
 * ```
 */
export class EntryIndex {
  /** Later duplicates win, as in pi. */
  readonly byId: Map<string, SessionEntry> = new Map();
  /** Resolved labels by target id, in pi's map order (which decides the order labels are re-emitted in). */
  readonly labels: Map<string, ResolvedLabel> = new Map();
  #children = new Map<string | null, SessionEntry[]>();
  #name: string | undefined;
  #conversation = 0;

  constructor(entries: Iterable<SessionEntry> = []) {
    for (const entry of entries) this.add(entry);
  }

  /** The latest `session_info` in file order decides; an empty name clears. */
  get sessionName(): string | undefined {
    return this.#name;
  }

  /** True once a user or assistant message exists (pi's rule for creating the file). */
  get hasConversation(): boolean {
    return this.#conversation > 0;
  }

  /** Direct children of `parentId` in the order they were added. */
  children(parentId: string | null): SessionEntry[] {
    return [...(this.#children.get(parentId) ?? [])];
  }

  /** Indexes `entry`; the returned function undoes exactly this call (call undos newest first). */
  add(entry: SessionEntry): () => void {
    const previous = this.byId.get(entry.id);
    this.byId.set(entry.id, entry);
    // A repeated id: the earlier entry leaves its parent's children (later duplicates win).
    let previousSiblings: SessionEntry[] | undefined;
    let previousAt = -1;
    if (previous) {
      previousSiblings = this.#children.get(previous.parentId);
      previousAt = previousSiblings?.indexOf(previous) ?? -1;
      if (previousAt >= 0) previousSiblings!.splice(previousAt, 1);
    }
    let siblings = this.#children.get(entry.parentId);
    if (!siblings) this.#children.set(entry.parentId, siblings = []);
    siblings.push(entry);
    const conversation = isConversation(entry);
    if (conversation) this.#conversation++;
    const undoLabel = entry.type === "label" ? this.#applyLabel(entry as LabelEntry) : undefined;
    const nameBefore = this.#name;
    if (entry.type === "session_info") {
      const name = (entry as SessionInfoEntry).name;
      this.#name = typeof name === "string" ? name.trim() || undefined : undefined;
    }
    // One undo for the whole call, in the reverse order of the steps above.
    return () => {
      this.#name = nameBefore;
      undoLabel?.();
      if (conversation) this.#conversation--;
      siblings.pop();
      if (previousAt >= 0) previousSiblings!.splice(previousAt, 0, previous!);
      if (previous) this.byId.set(entry.id, previous);
      else this.byId.delete(entry.id);
    };
  }

  #applyLabel({ targetId, label, timestamp }: LabelEntry): () => void {
    if (label) {
      const before = this.labels.get(targetId);
      this.labels.set(targetId, { label, timestamp });
      // Setting an existing key keeps its place, so restoring the old value restores the order too.
      return () => before ? this.labels.set(targetId, before) : this.labels.delete(targetId);
    }
    if (!this.labels.has(targetId)) return () => {};
    const order = [...this.labels];
    this.labels.delete(targetId);
    return () => {
      this.labels.clear();
      for (const [key, value] of order) this.labels.set(key, value);
    };
  }
}
