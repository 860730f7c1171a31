/**
 * The entry tree: guarded parent walks and the `SessionTree` index.
 * @module
 */
export * from "./walk-path.ts";
export * from "./session-tree.ts";
export * from "./tree-filter.ts";
