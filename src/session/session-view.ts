/**
 * One session held in memory (header, entries, leaf) and every question pi's
 * SessionManager answers about it. No IO: `SessionManager` adds files and appends on top.
 * @module
 */
import { buildContextEntries } from "../core/context/build-context-entries.ts";
import { buildSessionContext, buildSessionProjection } from "../core/context/session-projection.ts";
import type {
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionProjection,
  SessionTreeNode,
} from "../core/format/types.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import { walkToRoot } from "../core/tree/walk-path.ts";
import { EntryIndex } from "./entry-index.ts";
import { UnknownEntryError } from "./errors.ts";

/** The read side of `SessionManager`: queries, plus moving the leaf (which writes nothing). */
export class SessionView {
  #header!: SessionHeader;
  #entries: SessionEntry[] = [];
  #index = new EntryIndex();
  #leafId: string | null = null;

  /** Subclasses fill the session in with `setContents` before handing the object out. */
  protected constructor() {}

  /** Replaces the whole session; the leaf becomes its last entry. */
  protected setContents(header: SessionHeader, entries: SessionEntry[], index: EntryIndex = new EntryIndex(entries)): void {
    this.#header = header;
    this.#entries = entries;
    this.#index = index;
    this.#leafId = entries.length > 0 ? entries[entries.length - 1].id : null;
  }

  /** Adds `entry` as the new leaf; the returned function undoes exactly that. */
  protected addEntry(entry: SessionEntry): () => void {
    const leafBefore = this.#leafId;
    this.#entries.push(entry);
    const undo = this.#index.add(entry);
    this.#leafId = entry.id;
    return () => {
      this.#entries.pop();
      undo();
      this.#leafId = leafBefore;
    };
  }

  /** The live index (ids, labels, name); callers must not change it. */
  protected get index(): EntryIndex {
    return this.#index;
  }

  /** The live entry list; callers must not change it. */
  protected get entries(): readonly SessionEntry[] {
    return this.#entries;
  }

  /** Moves the leaf to an existing entry; nothing is written. */
  branch(branchFromId: string): void {
    if (!this.#index.byId.has(branchFromId)) throw new UnknownEntryError(branchFromId);
    this.#leafId = branchFromId;
  }

  /** Moves the leaf before the first entry: the next entry is a new root. */
  resetLeaf(): void {
    this.#leafId = null;
  }

  /** The entry the next append hangs under; null before the first entry. */
  getLeafId(): string | null {
    return this.#leafId;
  }

  /** The leaf entry, if any. */
  getLeafEntry(): SessionEntry | undefined {
    return this.#leafId === null ? undefined : this.#index.byId.get(this.#leafId);
  }

  /** The entry with this id (the later one if a file repeats an id). */
  getEntry(id: string): SessionEntry | undefined {
    return this.#index.byId.get(id);
  }

  /** Root-to-entry path from `fromId` (default: the leaf); [] for an unknown id. A cycle ends the walk. */
  getBranch(fromId?: string): SessionEntry[] {
    const start = fromId ?? this.#leafId;
    const entry = start ? this.#index.byId.get(start) : undefined;
    return entry ? walkToRoot(entry, this.#index.byId).path : [];
  }

  /** The whole forest: children by timestamp, labels resolved, cycles cut. */
  getTree(): SessionTreeNode[] {
    return new SessionTree(this.#entries).getTree();
  }

  /** Direct children of an entry, in file order. */
  getChildren(parentId: string): SessionEntry[] {
    return this.#index.children(parentId);
  }

  /** The resolved label of an entry: the latest label entry for it, across all branches. */
  getLabel(id: string): string | undefined {
    return this.#index.labels.get(id)?.label;
  }

  /** How many entries there are (header excluded; a repeated id counts once), without copying them. */
  getEntryCount(): number {
    return this.#index.byId.size;
  }

  /** Every entry (header excluded), in file order; a copy. */
  getEntries(): SessionEntry[] {
    return [...this.#entries];
  }

  /** The header (line 1 of the file). */
  getHeader(): SessionHeader {
    return this.#header;
  }

  /** The latest `session_info` name in file order; an empty one clears it. */
  getSessionName(): string | undefined {
    return this.#index.sessionName;
  }

  /** The header's session id. */
  getSessionId(): string {
    return this.#header.id;
  }

  /** The compaction-aware entries of the active branch. */
  buildContextEntries(): SessionEntry[] {
    return buildContextEntries(this.#entries, this.#leafId, this.#index.byId);
  }

  /** Each context entry of the active branch with the messages it contributes. */
  buildSessionProjection(): SessionProjection {
    return buildSessionProjection(this.#entries, this.#leafId, this.#index.byId);
  }

  /** What pi would send to the model at the leaf: messages, thinking level, model. */
  buildSessionContext(): SessionContext {
    return buildSessionContext(this.#entries, this.#leafId, this.#index.byId);
  }
}
