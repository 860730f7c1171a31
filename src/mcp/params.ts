/**
 * Checks a tool call's arguments against the tool's input schema (the few keywords our schemas
 * use: type, enum, minimum, maximum, minLength, minItems, items, required,
 * additionalProperties), so that a bad call gets one clear message naming the parameter.
 * @module
 */
type Schema = {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
};

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function checkValue(name: string, value: unknown, schema: Schema): string | undefined {
  const actual = typeOf(value);
  if (schema.type !== undefined && actual !== schema.type && !(schema.type === "number" && actual === "integer")) {
    return `${name} must be ${schema.type === "integer" ? "a whole number" : `a ${schema.type}`}, not ${actual === "string" ? JSON.stringify(value) : actual}`;
  }
  if (schema.enum && !schema.enum.includes(value)) return `${name} must be one of ${schema.enum.join(", ")}, not ${JSON.stringify(value)}`;
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return `${name} must be at least ${schema.minimum}, not ${value}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${name} must be at most ${schema.maximum}, not ${value}`;
  }
  if (typeof value === "string" && schema.minLength !== undefined && value.trim().length < schema.minLength) return `${name} must not be empty`;
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return `${name} must have at least ${schema.minItems} item(s)`;
    if (schema.items) {
      for (const [i, item] of value.entries()) {
        const problem = checkValue(`${name}[${i}]`, item, schema.items);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** The first problem of `args` against an object schema, as a sentence; undefined when they fit. */
export function checkParams(args: unknown, schema: Schema): string | undefined {
  if (args === undefined) args = {};
  if (typeOf(args) !== "object") return `arguments must be an object, not ${typeOf(args)}`;
  const given = args as Record<string, unknown>;
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (given[name] === undefined) return `missing required parameter "${name}"`;
  }
  for (const [name, value] of Object.entries(given)) {
    const property = properties[name];
    if (property === undefined) {
      if (schema.additionalProperties === false) return `unknown parameter "${name}" (known: ${Object.keys(properties).join(", ")})`;
      continue;
    }
    if (value === undefined) continue;
    const problem = checkValue(name, value, property);
    if (problem) return problem;
  }
  return undefined;
}
