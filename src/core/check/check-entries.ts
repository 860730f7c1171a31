/**
 * Entry-level validation for `check`: required fields, known types and roles, well-formed
 * compactions and summaries, and the format version. Pure: issues are returned as data, with
 * the file line of the entry; `checkSession` merges them with the reader's and the tree's.
 * @module
 */
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../format/types.ts";
import { issue, type ReadIssue } from "../read/issue.ts";
import type { SessionFile } from "../read/read-session.ts";
import { SessionTree } from "../tree/session-tree.ts";

/** Entry types pi 1.x writes. Others are kept and shown, but reported as unknown. */
export const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "message",
  "model_change",
  "thinking_level_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
  "usage",
  "context_edit",
]);

/** Message roles pi 1.x writes. */
export const KNOWN_ROLES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
  "system",
]);

/** What `checkEntries` reads of a session file. */
export type CheckInput = Pick<SessionFile, "header" | "entries" | "entryLines" | "version">;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  if (typeof value === "object") return "an object";
  return String(value);
}

function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}

/** The header's problems; `version` is the one on disk. */
export function headerIssues(header: SessionHeader, version: number): ReadIssue[] {
  const issues: ReadIssue[] = [];
  // `version` is the one on disk as pi reads it; `header` is already migrated when it was older.
  if (header.version !== undefined && typeof header.version !== "number") {
    issues.push(issue(1, "bad-field", `The header's "version" is ${describe(header.version)}, not a number; it is read as version ${version}`));
  }
  if (version < CURRENT_SESSION_VERSION) {
    issues.push(issue(1, "legacy-version", `The file is format version ${version}; pi reads it, but run \`pi-session migrate\` to rewrite it as version ${CURRENT_SESSION_VERSION}`));
  } else if (version > CURRENT_SESSION_VERSION) {
    issues.push(issue(1, "version-newer", `The file is format version ${version}, newer than the version ${CURRENT_SESSION_VERSION} this tool knows; some entries may be misread`));
  }
  if (header.cwd === undefined) issues.push(issue(1, "missing-field", `The header has no "cwd" field`));
  else if (typeof header.cwd !== "string") issues.push(issue(1, "bad-field", `The header's "cwd" is ${describe(header.cwd)}, not a string`));
  if (header.timestamp === undefined) issues.push(issue(1, "missing-field", `The header has no "timestamp" field`));
  else if (typeof header.timestamp !== "string" || !isIsoDate(header.timestamp)) {
    issues.push(issue(1, "bad-field", `The header's "timestamp" is ${describe(header.timestamp)}, not an ISO date`));
  }
  return issues;
}

/** Issues about one field: missing, or present but not what `ok` accepts. */
function field(e: Json, name: string, ok: (value: unknown) => boolean, want: string, at: (code: "missing-field" | "bad-field", message: string) => void): void {
  const what = `Entry ${typeof e.id === "string" ? `"${e.id}"` : "without an id"}`;
  if (!(name in e) || e[name] === undefined) at("missing-field", `${what} has no "${name}" field`);
  else if (!ok(e[name])) at("bad-field", `${what}: "${name}" is ${describe(e[name])}, not ${want}`);
}

const isString = (v: unknown) => typeof v === "string";
const isNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const isContent = (v: unknown) => typeof v === "string" || Array.isArray(v);

/**
 * What an entry's checks ask about the other entries of its file: whether an id is in it, and
 * whether an id is among an entry's ancestors as `walkToRoot` finds them (up to a root, a missing
 * parent or a cycle).
 */
export interface EntryRefs {
  has(id: string): boolean;
  hasAncestor(entry: SessionEntry, id: string): boolean;
}

/**
 * `EntryRefs` over entries by id (later duplicates win). An ancestor walk stops at the first
 * match: a compaction keeps from a few turns back, and a whole path per compaction would cost
 * time and memory on a long session.
 */
export function refsOf(byId: ReadonlyMap<string, SessionEntry>): EntryRefs {
  return {
    has: (id) => byId.has(id),
    hasAncestor(entry, id) {
      const seen = new Set<SessionEntry>([entry]);
      for (let current = entry;;) {
        const parentId: unknown = current.parentId;
        if (parentId === null || parentId === undefined || parentId === "") return false;
        const parent = byId.get(parentId as string);
        if (!parent || seen.has(parent)) return false;
        if (parent.id === id) return true;
        seen.add(parent);
        current = parent;
      }
    },
  };
}

/** The checks of one entry's own fields (`refs` answers for the entries it names). */
export function entryIssues(entry: SessionEntry, line: number, refs: EntryRefs): ReadIssue[] {
  const issues: ReadIssue[] = [];
  const e = entry as unknown as Json;
  const id = typeof e.id === "string" ? e.id : undefined;
  const at = (code: Parameters<typeof issue>[1], message: string) => issues.push(issue(line, code, message, id));
  const name = id === undefined ? "Entry without an id" : `Entry "${id}"`;
  if (id === "") at("bad-field", `Entry on line ${line} has an empty "id"`);
  field(e, "type", isString, "a string", at);
  field(e, "timestamp", (v) => typeof v === "string" && isIsoDate(v), "an ISO date", at);
  if (typeof e.type !== "string") return issues;
  if (!KNOWN_ENTRY_TYPES.has(e.type)) {
    at("unknown-type", `${name} has unknown type "${e.type}"; it is kept, shown and left out of the context`);
    return issues;
  }
  switch (e.type) {
    case "message": {
      if (!isObject(e.message)) {
        field(e, "message", isObject, "an object", at);
        break;
      }
      const role = e.message.role;
      if (role === undefined) at("missing-field", `${name} has a message without a "role"`);
      else if (typeof role !== "string") at("bad-field", `${name}: the message "role" is ${describe(role)}, not a string`);
      else if (!KNOWN_ROLES.has(role)) at("unknown-role", `${name} has a message with unknown role "${role}"; it is shown but not sent to the model`);
      break;
    }
    case "compaction": {
      field(e, "summary", isString, "a string", at);
      field(e, "tokensBefore", isNumber, "a number", at);
      if (e.retainedTail !== undefined && !Array.isArray(e.retainedTail)) {
        at("bad-field", `${name}: "retainedTail" is ${describe(e.retainedTail)}, not an array of messages`);
      }
      if (e.firstKeptEntryId !== undefined) {
        if (typeof e.firstKeptEntryId !== "string") {
          at("bad-field", `${name}: "firstKeptEntryId" is ${describe(e.firstKeptEntryId)}, not an entry id`);
        } else {
          if (!refs.hasAncestor(entry, e.firstKeptEntryId)) {
            at("compaction-off-path", `Compaction "${id}" keeps entries from "${e.firstKeptEntryId}", which is not on its own branch; nothing before the compaction is kept`);
          }
        }
      }
      break;
    }
    case "branch_summary":
      field(e, "summary", isString, "a string", at);
      if (typeof e.fromId !== "string") field(e, "fromId", isString, "a string", at);
      else if (e.fromId !== "root" && !refs.has(e.fromId)) {
        at("unknown-from-id", `Branch summary "${id}" comes from "${e.fromId}", which is not in this file (normal in a fork)`);
      }
      break;
    case "label":
      field(e, "targetId", isString, "an entry id", at);
      if (e.label !== undefined && typeof e.label !== "string") at("bad-field", `${name}: "label" is ${describe(e.label)}, not a string`);
      break;
    case "model_change":
      field(e, "provider", isString, "a string", at);
      field(e, "modelId", isString, "a string", at);
      break;
    case "thinking_level_change":
      field(e, "thinkingLevel", isString, "a string", at);
      break;
    case "custom":
    case "custom_message":
      field(e, "customType", isString, "a string", at);
      if (e.type === "custom_message") field(e, "content", isContent, "a string or an array of blocks", at);
      break;
    case "context_edit":
      field(e, "targetId", isString, "an entry id", at);
      if (e.replacement !== null && !(isObject(e.replacement) && isContent(e.replacement.content))) {
        at("bad-field", `${name}: "replacement" is ${describe(e.replacement)}, not null or {content}`);
      }
      break;
  }
  return issues;
}

/**
 * Field, type, role, compaction and version checks of a session file's entries. Missing ids
 * and parents, duplicates, cycles and label targets are `SessionTree.findIssues`' job.
 *
 * @example
 * ```ts
 * import { parseSession } from "../read/read-session.ts";
 * const file = parseSession('{"type":"session","version":3,"id":"s","timestamp":"2024-01-01T00:00:00Z","cwd":"/"}\n' +
 *   '{"type":"note","id":"a","parentId":null,"timestamp":"2024-01-01T00:00:00Z"}\n');
 * checkEntries(file).map((i) => i.code); // ["unknown-type"]
 * ```
 */
export function checkEntries(file: CheckInput, tree: SessionTree = new SessionTree(file.entries)): ReadIssue[] {
  const issues = file.header ? headerIssues(file.header, file.version) : [];
  const refs = refsOf(tree.byId);
  file.entries.forEach((entry, i) => issues.push(...entryIssues(entry, file.entryLines[i] ?? 0, refs)));
  return issues;
}

/**
 * Everything `check` reports for one file: the reader's issues, the tree's structural
 * issues and `checkEntries`, by line (stable within a line).
 */
export function checkSession(file: SessionFile): ReadIssue[] {
  if (file.notSession) return [...file.issues];
  const tree = new SessionTree(file.entries);
  // Array sort is stable, so issues on one line keep the order reader, tree, entries.
  return [...file.issues, ...tree.findIssues(file.entryLines), ...checkEntries(file, tree)].sort((a, b) => a.line - b.line);
}
