/**
 * The part of `pi-session/compat`'s manager that answers from a `LazySession` until it must hold
 * every entry: the leaf, single entries, labels, name, count and the model context come from the
 * skeleton and the few lines they need; any other call (the whole list, the tree, an append)
 * first reads every entry, and from then on the manager is the plain `SessionCore`.
 * @module
 */
import type { SessionContext, SessionEntry, SessionProjection, SessionTreeNode } from "../core/format/types.ts";
import { projectLazyPathSync } from "../core/context/lazy-projection.ts";
import type { SkeletonEntry } from "../core/read/skeleton-reader.ts";
import { walkToRoot } from "../core/tree/walk-path.ts";
import type { Steps } from "../io/io-steps.ts";
import { UnknownEntryError } from "../session/errors.ts";
import { SessionCore } from "../session/session-core.ts";
import type { NewSessionOptions } from "../session/session-options.ts";
import type { LazySession } from "./lazy-session.ts";

export class LazyCore extends SessionCore {
  #lazy: LazySession | undefined;

  /** Takes over a session opened by its skeleton: nothing is parsed beyond what it holds. */
  protected startLazy(lazy: LazySession): void {
    const { header, end } = lazy;
    this.adopt(lazy.path, {
      kind: "session",
      file: { header, entries: [], entryLines: [], issues: [], version: 3, migrated: false, notSession: false, endsWithNewline: end.newline, lineCount: 0, byteLength: end.size },
    });
    this.#lazy = lazy;
  }

  /** Reads every entry (once), keeping the leaf where it is. */
  protected materialize(): void {
    const lazy = this.#lazy;
    if (lazy === undefined) return;
    const entries = lazy.loadAll();
    this.#lazy = undefined;
    this.setContents(lazy.header, entries);
    if (lazy.leafId === null) this.resetLeaf();
    else this.branch(lazy.leafId);
  }

  /** Forgets the lazy session (the manager is switching to another one). */
  protected dropLazy(): void {
    this.#lazy = undefined;
  }

  #place(id: string | null | undefined): SkeletonEntry | undefined {
    return id == null ? undefined : this.#lazy!.byId.get(id);
  }

  override branch(branchFromId: string): void {
    if (this.#lazy === undefined) return super.branch(branchFromId);
    if (!this.#lazy.byId.has(branchFromId)) throw new UnknownEntryError(branchFromId);
    this.#lazy.leafId = branchFromId;
  }

  override resetLeaf(): void {
    if (this.#lazy === undefined) return super.resetLeaf();
    this.#lazy.leafId = null;
  }

  override getLeafId(): string | null {
    return this.#lazy === undefined ? super.getLeafId() : this.#lazy.leafId;
  }

  override getLeafEntry(): SessionEntry | undefined {
    return this.#lazy === undefined ? super.getLeafEntry() : this.getEntry(this.#lazy.leafId ?? "");
  }

  override getEntry(id: string): SessionEntry | undefined {
    if (this.#lazy === undefined) return super.getEntry(id);
    const place = this.#place(id);
    return place && this.#lazy.entry(place);
  }

  override getLabel(id: string): string | undefined {
    return this.#lazy === undefined ? super.getLabel(id) : this.#lazy.labels.get(id)?.label;
  }

  override getEntryCount(): number {
    return this.#lazy === undefined ? super.getEntryCount() : this.#lazy.byId.size;
  }

  override getSessionName(): string | undefined {
    return this.#lazy === undefined ? super.getSessionName() : this.#lazy.name;
  }

  /** The context at the leaf, parsing only the lines it needs (the latest compaction on). */
  override buildSessionContext(): SessionContext {
    const lazy = this.#lazy;
    if (lazy === undefined) return super.buildSessionContext();
    const leaf = this.#place(lazy.leafId);
    const path = leaf ? (walkToRoot(leaf as never, lazy.byId as never).path as unknown as SkeletonEntry[]) : [];
    const { messages, thinkingLevel, model } = projectLazyPathSync(path, (wanted) => lazy.parse(wanted));
    return { messages, thinkingLevel, model };
  }

  override getBranch(fromId?: string): SessionEntry[] {
    this.materialize();
    return super.getBranch(fromId);
  }

  override getTree(): SessionTreeNode[] {
    this.materialize();
    return super.getTree();
  }

  override getChildren(parentId: string): SessionEntry[] {
    this.materialize();
    return super.getChildren(parentId);
  }

  override getEntries(): SessionEntry[] {
    this.materialize();
    return super.getEntries();
  }

  override buildContextEntries(): SessionEntry[] {
    this.materialize();
    return super.buildContextEntries();
  }

  override buildSessionProjection(): SessionProjection {
    this.materialize();
    return super.buildSessionProjection();
  }

  override newSession(options?: NewSessionOptions): string | undefined {
    const file = super.newSession(options);
    this.#lazy = undefined;
    return file;
  }

  /** Steps that change or need the whole session run on the full one. */
  protected full<T>(steps: Steps<T>): Steps<T> {
    this.materialize();
    return steps;
  }
}
