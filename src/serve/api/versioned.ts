/**
 * What a value looks like on the wire, exactly as the CLI prints it with `--json`: our own
 * objects get `schemaVersion` first (docs/JSON.md), arrays and pi's shapes stay as they are.
 * @module
 */
import { JSON_SCHEMA_VERSION } from "../../cli/context.ts";

export function versioned(value: unknown): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? { schemaVersion: JSON_SCHEMA_VERSION, ...value } : value;
}
