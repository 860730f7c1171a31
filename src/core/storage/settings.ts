/**
 * pi's settings.json, read as JSONC (comments and trailing commas accepted, a superset of
 * what pi takes). A broken file is reported with line and column and counts as empty.
 * Plain JSON, the usual case, never loads the JSONC parser (a few ms of every start-up).
 * @module
 */
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../read/json-depth.ts";
import type { ParseError } from "jsonc-parser";

export interface SettingsProblem {
  line: number;
  column: number;
  message: string;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Parses settings text. Returns `{}` plus the problems when the text is not a JSONC object.
 *
 * @example
 * ```ts
 * (await parseSettings('{ "sessionDir": "~/s", // mine\n }')).settings; // { sessionDir: "~/s" }
 * ```
 */
export async function parseSettings(text: string): Promise<{ settings: Record<string, unknown>; problems: SettingsProblem[] }> {
  const source = text.replace(/^\uFEFF/, "");
  if (source.trim() === "") return { settings: {}, problems: [] };
  // Both parsers' results, and the JSONC parser itself, are walked recursively: refuse depth first.
  if (nestsDeeperThan(new TextEncoder().encode(source))) {
    return { settings: {}, problems: [{ line: 1, column: 1, message: `Settings nest values more than ${MAX_JSON_DEPTH} levels deep` }] };
  }
  try {
    // What strict JSON gives, JSONC gives too.
    const value: unknown = JSON.parse(source);
    if (isPlainObject(value)) return { settings: value, problems: [] };
  } catch {
    // Comments, trailing commas or a real error: the JSONC parser tells which, and where.
  }
  const { parse, printParseErrorCode } = await import("jsonc-parser");
  const errors: ParseError[] = [];
  const value = parse(source, errors, { allowTrailingComma: true, disallowComments: false });
  const problems = errors.map((error) => ({
    ...lineAndColumn(source, error.offset),
    message: printParseErrorCode(error.error),
  }));
  if (problems.length > 0) return { settings: {}, problems };
  if (!isPlainObject(value)) {
    return { settings: {}, problems: [{ line: 1, column: 1, message: "Settings must be a JSON object" }] };
  }
  return { settings: value as Record<string, unknown>, problems: [] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Project settings deep-merged over global ones, as pi does. */
export function mergeSettings(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  // A stack of pairs still to merge, not recursion: nesting depth is the settings file's to choose.
  const todo: [Record<string, unknown>, Record<string, unknown>][] = [[result, override]];
  while (todo.length > 0) {
    const [into, from] = todo.pop()!;
    for (const [key, value] of Object.entries(from)) {
      const current = into[key];
      if (isPlainObject(value) && isPlainObject(current)) {
        const merged = { ...current };
        into[key] = merged;
        todo.push([merged, value]);
      } else {
        into[key] = value;
      }
    }
  }
  return result;
}
