/**
 * A record's state as stores keep it and back, and whether what a store gave back can be used:
 * a record that cannot is left out, as if missing, so its file is read again.
 * @module
 */
import type { DigestState } from "../core/digest/digester.ts";
import { isObject } from "../core/read/decode-line.ts";
import type { CatalogRecord, SectionKey } from "./store.ts";

/** A record's state as stores keep it: JSON, through the section's `encode` when it has one. */
export function encodeState(section: SectionKey, state: DigestState<unknown>): unknown {
  return section.encode ? { ...state, data: section.encode(state.data) } : state;
}

/** A stored state back; throws `SyntaxError` when the section's `decode` finds it is not one. */
export function decodeState(section: SectionKey, stored: unknown): DigestState<unknown> {
  if (!section.decode) return stored as DigestState<unknown>;
  if (!isObject(stored)) throw new SyntaxError("a stored state is not an object");
  return { ...stored, data: section.decode(stored.data) } as DigestState<unknown>;
}

/**
 * A state from its stored JSON text (`encodeState`'s), or undefined when it does not parse or
 * is not sound (`stateProblem`).
 */
export function storedState(section: SectionKey, text: string): DigestState<unknown> | undefined {
  let state: DigestState<unknown>;
  try {
    state = decodeState(section, JSON.parse(text));
  } catch {
    return undefined;
  }
  return stateProblem(section, state) === null ? state : undefined;
}

/** Same kind of JSON value: null, array, object or primitive type. */
function sameKind(a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b);
  return typeof a === typeof b;
}

/**
 * A section's initial data and its fields, made once per section object: checking 25,000 loaded
 * records made them 25,000 times.
 */
const initials = new WeakMap<SectionKey, { data: unknown; fields: [string, unknown][] }>();
function initialData(section: SectionKey): { data: unknown; fields: [string, unknown][] } {
  let initial = initials.get(section);
  if (!initial) {
    const data = section.initial?.();
    initials.set(section, initial = { data, fields: isObject(data) ? Object.entries(data) : [] });
  }
  return initial;
}

/**
 * Why a decoded state cannot be used, or null when it can: it must be an object with a
 * `rejected` flag, a header that is null or an object, and data of the section's shape (each
 * field of its initial data present, of the same kind: null, array, object, number, …).
 */
export function stateProblem(section: SectionKey, state: unknown): string | null {
  if (!isObject(state)) return "a state is not an object";
  if (typeof state.rejected !== "boolean") return "a state has no rejected flag";
  if (state.header !== null && !isObject(state.header)) return "a state's header is not an object";
  const data = state.data;
  if (data === null || data === undefined) return "a state has no data";
  const initial = initialData(section);
  if (initial.data === undefined) return null;
  if (!sameKind(initial.data, data)) return "a state's data has the wrong shape";
  for (const [key, value] of initial.fields) {
    if (!sameKind(value, (data as Record<string, unknown>)[key])) return `a state's data has the wrong "${key}"`;
  }
  return null;
}

/**
 * Why a record loaded from a store cannot be used, or null when it can: the numbers must be
 * finite, the fingerprints strings, the states (as decoded) sound. Stores leave such a record
 * out, as if missing, so the file it describes is read again and the record replaced.
 */
export function recordProblem(section: SectionKey, record: CatalogRecord): string | null {
  if (typeof record.path !== "string" || record.path === "") return "a record has no path";
  for (const key of ["size", "mtimeMs", "end", "lines"] as const) {
    if (typeof record[key] !== "number" || !Number.isFinite(record[key])) return `a record's ${key} is not a number`;
  }
  if (typeof record.headHash !== "string" || typeof record.tailHash !== "string") return "a record's fingerprints are not strings";
  if (record.headerId !== null && typeof record.headerId !== "string") return "a record's header id is not a string";
  return stateProblem(section, record.state) ?? (record.final === undefined ? null : stateProblem(section, record.final));
}
