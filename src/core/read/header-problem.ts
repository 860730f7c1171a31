/**
 * What makes a `{"type":"session"}` line unusable as a header. Every reader (full, skeleton,
 * header scan, listing, catalog digests) asks this one question, so a header that one of them
 * accepts is never one that another trips over later (a numeric `id` in a table of prefixes).
 * Only the id decides: the session is known by it. Other fields of the wrong type (a numeric
 * `cwd`) are read as absent and reported by `check` as `bad-field`.
 * @module
 */

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * Why a session header (an object with `type: "session"`) cannot be used, or undefined when
 * it can. Says the field and the kind of value, never the value itself (it may be huge).
 *
 * @example
 * ```ts
 * headerProblem({ type: "session", id: 42, cwd: "/" }); // 'its "id" is a number, not a string'
 * headerProblem({ type: "session", id: "s", cwd: "/" }); // undefined
 * ```
 */
export function headerProblem(header: Record<string, unknown>): string | undefined {
  const id = header.id;
  if (id === undefined) return 'it has no "id"';
  if (typeof id !== "string") return `its "id" is ${kindOf(id)}, not a string`;
  if (id === "") return 'its "id" is empty';
  return undefined;
}
