/**
 * `check` of a session as it is read, in memory that does not grow with its texts: each entry
 * is checked when its line is read and then dropped, leaving its id and its parent as numbers
 * (`IdTable`; the reader keeps its line number). What needs the whole file (missing
 * parents, label targets, cycles, compactions and summaries naming other entries) is answered
 * from those arrays once the file is read. The problems are those of `checkSession`, in its order.
 * @module
 */
import type { LabelEntry, SessionEntry } from "../format/types.ts";
import { IntList } from "../intern/mod.ts";
import { issue, type ReadIssue } from "../read/issue.ts";
import { LEAN_READ, leanEntry } from "../read/lean-entry.ts";
import type { ReadOptions, SessionFile } from "../read/read-session.ts";
import { type EntryRefs, entryIssues, headerIssues } from "./check-entries.ts";
import { IdTable } from "./id-table.ts";

/** A parent key for `parentId: null` and for no `parentId` at all; other keys are ≥ 0. */
const NULL = -1;
const UNDEFINED = -2;

/** What the reader holds of each entry instead of the entry (the checker has what it needs). */
const HOLLOW: Record<string, unknown> = Object.freeze({});

/** Answers of a first look at an entry alone, before the rest of the file is known. */
const EVERYTHING_FOUND: EntryRefs = { has: () => true, hasAncestor: () => true };

/** Types whose checks name other entries: looked at again once the file is read. */
const NAMING: ReadonlySet<unknown> = new Set(["compaction", "branch_summary", "label"]);

/**
 * Checks entries one at a time (`add`, or as a reader's `keep`: `readOptions`), then says what
 * is wrong with the file (`issues`).
 *
 * @example
 * ```ts
 * import { readSession } from "../read/read-session.ts";
 * const checker = new SessionChecker();
 * // const file = await readSession(chunks, checker.readOptions);
 * // checker.issues(file); // as checkSession(file) with every entry read
 * ```
 */
export class SessionChecker {
  /** Keys of the values ids, parents and targets hold. */
  readonly #ids = new IdTable();
  /** By key: the last entry with that id (later duplicates win), or -1. */
  readonly #winner = new IntList();
  /** By entry: its id's key, its parent's key (or NULL, UNDEFINED). */
  readonly #id = new IntList();
  readonly #parent = new IntList();
  /** Entries to look at again with the whole file known, by entry index, in file order. */
  readonly #held: { index: number; entry: SessionEntry }[] = [];

  /** Reader options that check each entry (its lean copy, see `leanEntry`) and hold none. */
  readonly readOptions: ReadOptions = {
    keep: (entry) => {
      this.add(leanEntry(entry) as unknown as SessionEntry);
      return HOLLOW;
    },
    skim: LEAN_READ.skim,
    skimChars: LEAN_READ.skimChars,
  };

  /** The next entry in file order. */
  add(entry: SessionEntry): void {
    const index = this.#id.length;
    const key = this.#key(entry.id);
    this.#winner.set(key, index);
    this.#id.push(key);
    const parentId: unknown = entry.parentId;
    this.#parent.push(parentId === null ? NULL : parentId === undefined ? UNDEFINED : this.#key(parentId));
    if (NAMING.has(entry.type) || entryIssues(entry, 0, EVERYTHING_FOUND).length > 0) this.#held.push({ index, entry });
  }

  /**
   * Everything `check` reports of the file whose entries were added, as `checkSession` does:
   * the reader's issues, the tree's, the header's and the entries', by line.
   */
  issues(file: Pick<SessionFile, "header" | "entryLines" | "issues" | "version" | "notSession">): ReadIssue[] {
    if (file.notSession) return [...file.issues];
    const lines = file.entryLines;
    const entries = [...(file.header ? headerIssues(file.header, file.version) : [])];
    for (const { index, entry } of this.#held) entries.push(...entryIssues(entry, lines[index] ?? 0, this.#refsAt(index)));
    return [...file.issues, ...this.#treeIssues(lines), ...entries].sort((a, b) => a.line - b.line);
  }

  /** The key of an id value, made on first sight. */
  #key(value: unknown): number {
    const key = this.#ids.key(value);
    if (key === this.#winner.length) this.#winner.push(-1);
    return key;
  }

  /** The entry with id `value` (the last of its id), or -1. */
  #find(value: unknown): number {
    const key = this.#ids.find(value);
    return key === -1 ? -1 : this.#winner.at(key);
  }

  /** `EntryRefs` for the entry at `index`, from the whole file. */
  #refsAt(index: number): EntryRefs {
    return {
      has: (id) => this.#find(id) >= 0,
      hasAncestor: (_entry, id) => {
        const seen = new Set<number>();
        for (let parent = this.#parent.at(index);;) {
          if (parent === NULL || parent === UNDEFINED || this.#ids.is(parent, "")) return false;
          const found = this.#winner.at(parent);
          if (found === -1 || found === index || seen.has(parent)) return false;
          if (this.#ids.is(parent, id)) return true;
          seen.add(parent);
          parent = this.#parent.at(found);
        }
      },
    };
  }

  /** What `SessionTree.findIssues` finds: ids, duplicates, links, label targets, then cycles. */
  #treeIssues(lines: readonly number[]): ReadIssue[] {
    const issues: ReadIssue[] = [];
    const ids = this.#ids;
    const seen = new Uint8Array(ids.size);
    let held = 0;
    for (let i = 0; i < this.#id.length; i++) {
      const line = lines[i] ?? 0;
      while (held < this.#held.length && this.#held[held].index < i) held++;
      const key = this.#id.at(i);
      if (!ids.isString(key)) {
        issues.push(issue(line, "missing-field", `Entry on line ${line} has no string "id" field`));
        continue;
      }
      const repeated = seen[key] === 1;
      seen[key] = 1;
      const parent = this.#parent.at(i);
      const linkProblem = parent === UNDEFINED || parent === key || (parent !== NULL && this.#winner.at(parent) === -1);
      const entry = this.#held[held]?.index === i ? this.#held[held].entry as LabelEntry : undefined;
      const targetMissing = entry?.type === "label" && this.#find(entry.targetId) === -1;
      // The id is made a string again only for a message.
      if (!repeated && !linkProblem && !targetMissing) continue;
      const id = ids.value(key) as string;
      if (repeated) issues.push(issue(line, "duplicate-id", `Entry id "${id}" appears more than once; the later line wins`, id));
      if (parent === UNDEFINED) {
        issues.push(issue(line, "missing-field", `Entry "${id}" has no "parentId" field; it is treated as a root`, id));
      } else if (parent === key) {
        issues.push(issue(line, "self-parent", `Entry "${id}" names itself as its parent`, id));
      } else if (linkProblem) {
        issues.push(issue(line, "missing-parent", `Entry "${id}" has parent "${ids.value(parent)}", which is not in the file`, id));
      }
      if (targetMissing) issues.push(issue(line, "label-target-missing", `Label entry "${id}" targets "${entry!.targetId}", which is not in the file`, id));
    }
    this.#cycles(lines, issues);
    return issues.sort((a, b) => a.line - b.line);
  }

  /**
   * Parent cycles: a walk up from each id (in the order of their first lines, as
   * `SessionTree.byId` holds them: a later line of an id finds it settled) until something settled.
   */
  #cycles(lines: readonly number[], issues: ReadIssue[]): void {
    // 1: on the current walk, 2: settled.
    const state = new Uint8Array(this.#ids.size);
    const walked: number[] = [];
    for (let n = 0; n < this.#id.length; n++) {
      walked.length = 0;
      for (let key = this.#id.at(n); key >= 0 && state[key] === 0;) {
        state[key] = 1;
        walked.push(key);
        const entry = this.#winner.at(key);
        const parent = this.#parent.at(entry);
        if (parent === NULL || parent === UNDEFINED || parent === key) break;
        const found = this.#winner.at(parent) >= 0;
        if (found && state[parent] === 1) {
          const id = this.#ids.value(key) as string;
          issues.push(issue(lines[entry] ?? 0, "cycle", `Entry "${id}" has parent "${this.#ids.value(parent)}", which leads back to it (a parent cycle)`, id));
          break;
        }
        key = found ? parent : -1;
      }
      for (const key of walked) state[key] = 2;
    }
  }
}
