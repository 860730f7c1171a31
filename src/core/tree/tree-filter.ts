/**
 * pi's five tree filters, as its terminal /tree and the sidebar of its HTML export apply them.
 * The two agree on the modes and differ on which entry types are settings, so callers pass
 * their own set (REFERENCE.md §10.1 and §12.1).
 * @module
 */

/** Every filter, in pi's Ctrl+O cycle order. */
export const TREE_FILTERS = ["default", "no-tools", "user-only", "labeled-only", "all"] as const;

/** pi's tree filter modes. */
export type TreeFilter = (typeof TREE_FILTERS)[number];

/** What a filter looks at: the entry type, a message's role, whether the entry has a label. */
export interface FilterFacts {
  type: string;
  role: string | undefined;
  labelled: boolean;
}

/**
 * Whether `filter` keeps an entry (the rules that apply in every mode come before this).
 *
 * @example
 * ```ts
 * filterKeeps("no-tools", { type: "message", role: "toolResult", labelled: false }, new Set(["label"])); // false
 * ```
 */
export function filterKeeps(filter: TreeFilter, entry: FilterFacts, settingsTypes: ReadonlySet<string>): boolean {
  switch (filter) {
    case "user-only":
      return entry.role === "user";
    case "no-tools":
      return !settingsTypes.has(entry.type) && entry.role !== "toolResult";
    case "labeled-only":
      return entry.labelled;
    case "all":
      return true;
    default:
      return !settingsTypes.has(entry.type);
  }
}
