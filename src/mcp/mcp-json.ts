/**
 * The `pi-session` entry in an MCP client's `mcp.json` (key `mcpServers`, as pi, Claude Code and
 * Cursor read it): added, updated or removed as a text edit, so that every other entry, comment,
 * trailing comma and the file's indentation stay as they were. Pure: text in, text out.
 * @module
 */
import { applyEdits, type FormattingOptions, modify, type ParseError, parse, printParseErrorCode } from "jsonc-parser";

/** The entry's name under `mcpServers`. */
export const SERVER_NAME = "pi-session";

/** A stdio server entry, as pi and other MCP clients take it. */
export interface ServerEntry {
  command: string;
  args: string[];
  description?: string;
}

/** What an edit found, and the new text (`undefined` when nothing changes). */
export interface McpJsonEdit {
  text: string | undefined;
  /** "added", "updated", "unchanged", "removed", "absent" (nothing to remove). */
  outcome: "added" | "updated" | "unchanged" | "removed" | "absent";
  /** The file holds comments or trailing commas (pi 1.6 reads mcp.json as strict JSON). */
  notStrictJson: boolean;
}

/** A file that cannot be edited safely: not JSON(C), or `mcpServers` is not an object. */
export class McpJsonProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpJsonProblem";
  }
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** The parsed file; a `McpJsonProblem` saying where it is broken. */
function parseFile(text: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = text.trim() === "" ? {} : parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0];
    throw new McpJsonProblem(`${printParseErrorCode(first.error)} at ${lineColumn(text, first.offset)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new McpJsonProblem("the file is not a JSON object");
  const servers = (value as Record<string, unknown>).mcpServers;
  if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers))) {
    throw new McpJsonProblem(`"mcpServers" is not an object`);
  }
  return value as Record<string, unknown>;
}

function isStrictJson(text: string): boolean {
  if (text.trim() === "") return true;
  try {
    JSON.parse(text.replace(/^\uFEFF/, ""));
    return true;
  } catch {
    return false;
  }
}

/** The file's own indentation (first indented line), two spaces when it has none. */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return indent.startsWith("\t") ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

function sameEntry(a: unknown, b: ServerEntry): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Adds `entry` as `mcpServers["pi-session"]`, or replaces the one there (the rest of the file is
 * left as it is). An empty text becomes a new file.
 *
 * @example
 * ```ts
 * setServerEntry('{\n  // mine\n  "mcpServers": {"x": {"command": "x"}}\n}', { command: "pi-session", args: ["mcp"] }).text;
 * ```
 */
export function setServerEntry(withBom: string, entry: ServerEntry): McpJsonEdit {
  // A byte-order mark (pi reads past one) is kept, outside the edit.
  const bom = withBom.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = withBom.slice(bom.length);
  const parsed = parseFile(text);
  const notStrictJson = !isStrictJson(text);
  const servers = parsed.mcpServers as Record<string, unknown> | undefined;
  const existing = servers?.[SERVER_NAME];
  if (existing !== undefined && sameEntry(existing, entry)) return { text: undefined, outcome: "unchanged", notStrictJson };
  const base = text.trim() === "" ? "{}\n" : text;
  const edits = modify(base, ["mcpServers", SERVER_NAME], entry, { formattingOptions: formatting(base) });
  let out = applyEdits(base, edits);
  if (!/\r?\n$/.test(out)) out += formatting(base).eol;
  return { text: bom + out, outcome: existing === undefined ? "added" : "updated", notStrictJson };
}

/** Removes `mcpServers["pi-session"]`; `absent` (and no text) when there is none. */
export function removeServerEntry(withBom: string): McpJsonEdit {
  const bom = withBom.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = withBom.slice(bom.length);
  const parsed = parseFile(text);
  const notStrictJson = !isStrictJson(text);
  const servers = parsed.mcpServers as Record<string, unknown> | undefined;
  if (servers === undefined || !Object.hasOwn(servers, SERVER_NAME)) return { text: undefined, outcome: "absent", notStrictJson };
  const edits = modify(text, ["mcpServers", SERVER_NAME], undefined, { formattingOptions: formatting(text) });
  return { text: bom + applyEdits(text, edits), outcome: "removed", notStrictJson };
}

/** The snippet `--print` shows: a whole `mcp.json` with just this entry. */
export function entrySnippet(entry: ServerEntry): string {
  return JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2);
}
