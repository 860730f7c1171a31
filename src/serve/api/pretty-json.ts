/**
 * `JSON.stringify(present(value), null, 2)`, built a part at a time: the members of the value
 * and the items of its arrays each masked and written on their own, then joined once. A
 * 10,000-row tree or a page of long tool outputs is then never copied whole by the masking, nor
 * grown in one buffer by doubling. The text is the same to the byte.
 * @module
 */

/** Masks one part (a member's value, an item): the server's `present`. */
export type Present = <T>(value: T) => T;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/** `part` (already at `indent`) as JSON, with its own lines indented by `indent`. */
function nested(part: unknown, indent: string, present: Present): string | undefined {
  const text = JSON.stringify(present(part), null, 2) as string | undefined;
  return text === undefined ? undefined : text.replaceAll("\n", "\n" + indent);
}

/**
 * One item of a top-level array as `prettyJson` writes it (after `\n  `): for a body written an
 * item at a time, `[`, each item on its own line (`,` between), then `\n]`.
 */
export function arrayItemJson(item: unknown, present: Present): string {
  return nested(item, "  ", present) ?? "null";
}

function arrayParts(items: readonly unknown[], indent: string, present: Present, out: string[]): void {
  if (items.length === 0) return void out.push("[]");
  out.push("[");
  items.forEach((item, i) => out.push(`\n${indent}  ${nested(item, indent + "  ", present) ?? "null"}${i < items.length - 1 ? "," : ""}`));
  out.push(`\n${indent}]`);
}

/**
 * The pretty JSON of `value` as the server's bodies are (two-space indent), each member and
 * array item masked by `present` on its own. Only an object's own keys name a secret, never the
 * value as a whole, so masking part by part masks the same spans.
 *
 * @example
 * ```ts
 * prettyJson({ rows: [{ id: "a" }] }, (v) => v) === JSON.stringify({ rows: [{ id: "a" }] }, null, 2); // true
 * ```
 */
export function prettyJson(value: unknown, present: Present): string {
  const out: string[] = [];
  if (Array.isArray(value)) arrayParts(value, "", present, out);
  else if (isPlainObject(value)) {
    const members = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function" && typeof v !== "symbol");
    if (members.length === 0) return "{}";
    out.push("{");
    members.forEach(([key, member], i) => {
      out.push(`\n  ${JSON.stringify(key)}: `);
      if (Array.isArray(member)) arrayParts(member, "  ", present, out);
      else out.push(nested(member, "  ", present)!);
      if (i < members.length - 1) out.push(",");
    });
    out.push("\n}");
  } else return JSON.stringify(present(value), null, 2);
  return out.join("");
}
