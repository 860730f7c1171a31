/**
 * pi's settings.json, read as JSONC (comments and trailing commas accepted, a superset of
 * what pi takes). A broken file is reported with line and column and counts as empty.
 * @module
 */
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

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
 * parseSettings('{ "sessionDir": "~/s", // mine\n }').settings; // { sessionDir: "~/s" }
 * ```
 */
export function parseSettings(text: string): { settings: Record<string, unknown>; problems: SettingsProblem[] } {
  const errors: ParseError[] = [];
  const value = parse(text.replace(/^\uFEFF/, ""), errors, { allowTrailingComma: true, disallowComments: false });
  const problems = errors.map((error) => ({
    ...lineAndColumn(text, error.offset),
    message: printParseErrorCode(error.error),
  }));
  if (problems.length > 0) return { settings: {}, problems };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { settings: {}, problems: text.trim() ? [{ line: 1, column: 1, message: "Settings must be a JSON object" }] : [] };
  }
  return { settings: value as Record<string, unknown>, problems: [] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Project settings deep-merged over global ones, as pi does. */
export function mergeSettings(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    result[key] = isPlainObject(value) && isPlainObject(result[key]) ? mergeSettings(result[key] as Record<string, unknown>, value) : value;
  }
  return result;
}
