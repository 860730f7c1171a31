/**
 * The catalog section behind `stats` and `info`'s inherited usage: one row per usage-bearing
 * entry (what pi's /session sums), found by walking line bytes and parsing only the `usage`
 * objects. User messages stop at their role; tool output is never parsed.
 * @module
 */
import type { SessionEntry } from "../format/types.ts";
import { entryUsage } from "../info/usage-totals.ts";
import { decodeLine, isObject } from "../read/decode-line.ts";
import type { RawLine } from "../read/line-splitter.ts";
import { keyIs, stringValue, valueEnd } from "../read/scan-keys.ts";
import type { DigestKind } from "./digester.ts";
import { exactTimeAt, hexIdAt } from "./entry-stamp.ts";
import { scanMembers, STOP } from "./scan-members.ts";
import {
  compactUsage,
  decodeUsage,
  emptyUsageState,
  encodeUsage,
  pushRow,
  pushStampedRow,
  rowOfUsage,
  type UsageRow,
  type UsageSource,
  type UsageState,
} from "./usage-state.ts";

const decoder = new TextDecoder();
const scratch: never[] = [];

function sourceOf(entry: SessionEntry): UsageSource {
  if (entry.type !== "message") return entry.type as UsageSource;
  return (entry as { message: { role: string } }).message.role === "assistant" ? "assistant" : "toolResult";
}

/** The slow path for lines the walk cannot read: a full parse. */
function rowFromParsed(line: RawLine): UsageRow | undefined {
  const decoded = decodeLine(line, { bom: false, crlf: false }, scratch);
  scratch.length = 0;
  if (decoded.kind !== "value" || !isObject(decoded.value)) return undefined;
  return usageRowOfEntry(decoded.value as unknown as SessionEntry);
}

/**
 * The usage row of an entry already parsed (as it is in the file, not migrated), if it carries
 * usage pi would count: the row this digest makes of its line.
 */
export function usageRowOfEntry(entry: SessionEntry): UsageRow | undefined {
  const found = entryUsage(entry);
  if (!found || !isObject(found.usage)) return undefined;
  return rowOfUsage(sourceOf(entry), entry.id, entry.timestamp, found.key, found.usage);
}

function parseSpan(b: Uint8Array, start: number, end: number): unknown {
  try {
    return JSON.parse(decoder.decode(b.subarray(start, end)));
  } catch {
    return undefined;
  }
}

/** The fields the walk keeps, entry's then message's: where each value is, by index. */
const FIELDS = ["type", "id", "timestamp", "provider", "model"];
const [TYPE, ID, TIMESTAMP, PROVIDER, MODEL] = [0, 1, 2, 3, 4];
const MESSAGE_FIELDS = ["role", "provider", "model", "responseModel"];
const [ROLE, MESSAGE_PROVIDER, MESSAGE_MODEL, RESPONSE_MODEL] = [5, 6, 7, 8];
/** Entry types that may carry usage; a line of any other type is done once its type is read. */
const TYPES = ["message", "usage", "compaction", "branch_summary"] as const;
const ROLES = ["assistant", "toolResult"] as const;

/** True when `b[start, end)` holds a backslash. */
function hasEscape(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (b[i] === 0x5c) return true;
  return false;
}

/**
 * The walk over one line's members, made once and reused line after line. It keeps where the
 * wanted values are, not the values: a cold `stats` walks every line of every session, and
 * strings made there for ids, types and roles (most never needed) set how often the garbage
 * collector runs and how far its young generation grows. One line at a time.
 */
class LineWalk {
  bytes: Uint8Array = new Uint8Array(0);
  /** Start and end of each field's value, -1 where absent. */
  readonly spans = new Int32Array(2 * (FIELDS.length + MESSAGE_FIELDS.length));
  /** The entry's type, if one of `TYPES`; null for another string, undefined until one is read. */
  type: typeof TYPES[number] | null | undefined;
  /** The message's role, likewise. */
  role: typeof ROLES[number] | null | undefined;
  /** Where the entry's own and its message's `usage` values are, or -1. */
  usageStart = -1;
  usageEnd = -1;
  messageUsageStart = -1;
  messageUsageEnd = -1;
  sawMessage = false;

  start(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.spans.fill(-1);
    this.type = this.role = undefined;
    this.usageStart = this.usageEnd = this.messageUsageStart = this.messageUsageEnd = -1;
    this.sawMessage = false;
  }

  /** The string value of field `k`, undefined when absent or not a string (throws on a bad escape). */
  text(k: number): string | undefined {
    const start = this.spans[2 * k];
    return start < 0 ? undefined : stringValue(this.bytes, start, this.spans[2 * k + 1]);
  }

  /** Which of `names` the value of field `k` is: null for another string, undefined for no string. */
  #which<T extends string>(k: number, names: readonly T[]): T | null | undefined {
    const [b, start, end] = [this.bytes, this.spans[2 * k], this.spans[2 * k + 1]];
    if (b[start] !== 0x22) return undefined;
    for (const name of names) if (keyIs(b, start, end, name)) return name;
    // Compared as bytes so far; a value with escapes is decoded and compared again.
    if (!hasEscape(b, start, end)) return null;
    const text = stringValue(b, start, end) as T;
    return names.includes(text) ? text : null;
  }

  /** Keeps where the value of field `k` at `vs` is (unless empty); returns its end. */
  #keep(vs: number, k: number): number {
    const end = valueEnd(this.bytes, vs);
    if (end <= vs) return end;
    this.spans[2 * k] = vs;
    this.spans[2 * k + 1] = end;
    if (k === TYPE) this.type = this.#which(TYPE, TYPES);
    else if (k === ROLE) this.role = this.#which(ROLE, ROLES);
    return end;
  }

  readonly visitEntry = (ks: number, ke: number, vs: number): number => {
    const b = this.bytes;
    for (let k = 0; k < FIELDS.length; k++) if (keyIs(b, ks, ke, FIELDS[k])) return this.#keep(vs, k);
    if (keyIs(b, ks, ke, "usage")) {
      this.usageStart = vs;
      return this.usageEnd = valueEnd(b, vs);
    }
    if (this.type === null) return STOP;
    if (!keyIs(b, ks, ke, "message") || b[vs] !== 0x7b) return valueEnd(b, vs);
    this.sawMessage = true;
    return scanMembers(b, vs, this.visitMessage);
  };

  readonly visitMessage = (ks: number, ke: number, vs: number): number => {
    const b = this.bytes;
    for (let k = 0; k < MESSAGE_FIELDS.length; k++) if (keyIs(b, ks, ke, MESSAGE_FIELDS[k])) return this.#keep(vs, ROLE + k);
    if (this.role === null) return STOP;
    if (!keyIs(b, ks, ke, "usage")) return valueEnd(b, vs);
    this.messageUsageStart = vs;
    return this.messageUsageEnd = valueEnd(b, vs);
  };
}

const walk = new LineWalk();

/** What a line's walk found: the row but its id and timestamp, which `walk` still points at. */
interface Found {
  source: UsageSource;
  key: string;
  usage: Record<string, unknown>;
}

/**
 * Walks a line: what it found, undefined for a line without usage, or null for a line the walk
 * cannot read (it then needs the full parse).
 */
function walkLine(line: RawLine): Found | undefined | null {
  const b = line.bytes;
  walk.start(b);
  if (scanMembers(b, 0, walk.visitEntry) === -1) return null;
  const { type, role } = walk;
  if (type === "message") {
    if (!walk.sawMessage || walk.messageUsageStart < 0 || (role !== "assistant" && role !== "toolResult")) return undefined;
    const usage = parseSpan(b, walk.messageUsageStart, walk.messageUsageEnd);
    if (!isObject(usage)) return undefined;
    const key = role === "assistant" ? `${walk.text(MESSAGE_PROVIDER)}/${walk.text(RESPONSE_MODEL) ?? walk.text(MESSAGE_MODEL)}` : "Tools/summaries";
    return { source: role, key, usage };
  }
  if (type && walk.usageStart >= 0) {
    const usage = parseSpan(b, walk.usageStart, walk.usageEnd);
    if (!isObject(usage)) return undefined;
    const key = type === "usage" ? `${walk.text(PROVIDER)}/${walk.text(MODEL)}` : "Tools/summaries";
    return { source: type, key, usage };
  }
  return undefined;
}

/** The row of a walked line, with its id and timestamp as strings. */
function rowOf(found: Found): UsageRow {
  return rowOfUsage(found.source, walk.text(ID), walk.text(TIMESTAMP), found.key, found.usage);
}

/** The usage row of one entry line, if it carries usage pi would count. */
export function usageRowOfLine(line: RawLine): UsageRow | undefined {
  const found = lineRow(line);
  if (found === undefined || Array.isArray(found)) return found;
  try {
    return rowOf(found);
  } catch {
    return rowFromParsed(line);
  }
}

/** The row of a line as `walkLine` finds it, or as the full parse does when the walk cannot. */
function lineRow(line: RawLine): Found | UsageRow | undefined {
  try {
    const found = walkLine(line);
    if (found !== null) return found;
  } catch {
    // A value with a bad escape: the line is not JSON, as the full parse will say.
  }
  return rowFromParsed(line);
}

/** Adds the row of a line to a state, its id and time read as numbers without strings where they can be. */
function addLine(state: UsageState, line: RawLine): void {
  const found = lineRow(line);
  if (found === undefined) return;
  if (Array.isArray(found)) return pushRow(state, found);
  const [b, spans] = [line.bytes, walk.spans];
  const id = hexIdAt(b, spans[2 * ID], spans[2 * ID + 1]);
  const ms = exactTimeAt(b, spans[2 * TIMESTAMP], spans[2 * TIMESTAMP + 1]);
  if (id !== undefined && ms !== undefined) return pushStampedRow(state, found.source, found.key, id, ms, found.usage);
  let row;
  try {
    row = rowOf(found);
  } catch {
    row = rowFromParsed(line);
  }
  if (row) pushRow(state, row);
}

/** Usage rows per session file. */
export const usageDigest: DigestKind<UsageState> = {
  name: "usage",
  // 5: rows stored packed in a string (4: as a JSON array of numbers; 3: rows as numbers in a
  // typed array; 2: column by column; 1: one array per row).
  version: 5,
  initial: emptyUsageState,
  entry: addLine,
  encode: encodeUsage,
  decode: decodeUsage,
  compact: compactUsage,
};
