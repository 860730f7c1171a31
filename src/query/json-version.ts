/**
 * The version stamped on every `--json` object (docs/JSON.md, docs/schema/): every surface that
 * gives a query's value as JSON stamps it the same way, so the CLI and the HTTP API agree.
 * @module
 */

/** The version of every JSON shape; bumped on any change that is not an addition. */
export const JSON_SCHEMA_VERSION = 1;

/**
 * `value` as the CLI prints it with `--json`: an object gets `"schemaVersion"` first; arrays
 * stay arrays (see docs/JSON.md). Shapes that are pi's own (`context`) are given as they are.
 *
 * @example
 * ```ts
 * versioned({ leafId: "a" }); // { schemaVersion: 1, leafId: "a" }
 * versioned([1, 2]);          // [1, 2]
 * ```
 */
export function versioned(value: unknown): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? { schemaVersion: JSON_SCHEMA_VERSION, ...value } : value;
}
