/**
 * A small JSON Schema checker for the keywords docs/schema/ uses, and only those: `type`,
 * `properties`, `required`, `items`, `enum`, `additionalProperties`, and `$ref` into the same
 * file's `$defs`. Anything else in a schema is an error, so a schema cannot silently ask for
 * more than this checker enforces. (No validator is among the project's dependencies.)
 * @module
 */

/** The subset of JSON Schema we write. */
export interface Schema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  $defs?: Record<string, Schema>;
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
}

const KNOWN = new Set(["$schema", "$id", "title", "description", "$defs", "$ref", "type", "properties", "required", "additionalProperties", "items", "enum"]);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeOf(value) === type;
}

/**
 * Every way `value` breaks `schema`, as `path: problem` lines; empty when it conforms. `root`
 * is the schema whose `$defs` a `$ref` points into.
 *
 * @example
 * ```ts
 * validate({ type: "object", required: ["a"] }, {}); // ["$: missing required property \"a\""]
 * ```
 */
export function validate(schema: Schema, value: unknown, path = "$", root: Schema = schema): string[] {
  const unknown = Object.keys(schema).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) return [`${path}: the schema uses keywords this checker does not know: ${unknown.join(", ")}`];
  if (schema.$ref !== undefined) {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : root.$defs?.[name];
    if (!target) return [`${path}: cannot resolve $ref ${schema.$ref}`];
    return validate(target, value, path, root);
  }
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => hasType(value, t))) return [`${path}: expected ${types.join(" or ")}, got ${typeOf(value)}`];
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) errors.push(`${path}: missing required property "${key}"`);
    for (const [key, child] of Object.entries(object)) {
      const sub = schema.properties?.[key];
      if (sub) errors.push(...validate(sub, child, `${path}.${key}`, root));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property "${key}"`);
      else if (typeof schema.additionalProperties === "object") errors.push(...validate(schema.additionalProperties, child, `${path}.${key}`, root));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => errors.push(...validate(schema.items!, item, `${path}[${i}]`, root)));
  return errors;
}
