/**
 * The catalog section behind `stats` and `info`'s inherited usage: one compact row per
 * usage-bearing entry (what pi's /session sums), found by walking line bytes and parsing only
 * the `usage` objects. User messages stop at their role; tool output is never parsed.
 * @module
 */
import type { SessionEntry } from "../format/types.ts";
import { entryUsage, type UsageTotals } from "../info/usage-totals.ts";
import { decodeLine, isObject } from "../read/decode-line.ts";
import type { RawLine } from "../read/line-splitter.ts";
import { keyIs, stringValue, valueEnd } from "../read/scan-keys.ts";
import type { DigestKind } from "./digester.ts";
import { scanMembers, STOP } from "./scan-members.ts";

/** Where a row's usage came from: assistant, tool result, compaction, branch summary, usage entry. */
export type UsageSource = "assistant" | "toolResult" | "compaction" | "branch_summary" | "usage";

const SOURCES: readonly UsageSource[] = ["assistant", "toolResult", "compaction", "branch_summary", "usage"];

/**
 * One usage-bearing entry: source, entry id, entry timestamp, cost key (`provider/model` or
 * `Tools/summaries`, as pi files it), then input, output, cacheRead, cacheWrite tokens and the
 * input, output, cacheRead, cacheWrite and total cost. `usageRow` builds one from a state.
 */
export type UsageRow = [
  UsageSource,
  string | null,
  string | null,
  string,
  number, number, number, number,
  number, number, number, number, number,
];

/**
 * The usage rows of one file, in file order, column by column: a catalog of all sessions holds
 * tens of thousands of rows, and a few arrays per file (numbers unboxed, each cost key once)
 * take a fraction of the memory of one array per row.
 */
export interface UsageState {
  /** The file's cost keys, each once, in order of first use. */
  keys: string[];
  /** Per row: the entry id, or null. */
  ids: (string | null)[];
  /** Per row: the entry timestamp as written, or null. */
  timestamps: (string | null)[];
  /**
   * `ROW_NUMBERS` per row: source (index into the sources), key index, then the tokens and
   * costs in `UsageRow` order.
   */
  numbers: number[];
}

/** How many numbers `UsageState.numbers` holds per row. */
export const ROW_NUMBERS = 11;

/** How many rows a state holds. */
export function rowCount(state: UsageState): number {
  return state.ids.length;
}

/** Row `i` of a state as a tuple. */
export function usageRow(state: UsageState, i: number): UsageRow {
  const n = state.numbers;
  const at = i * ROW_NUMBERS;
  return [
    SOURCES[n[at]], state.ids[i], state.timestamps[i], state.keys[n[at + 1]],
    n[at + 2], n[at + 3], n[at + 4], n[at + 5],
    n[at + 6], n[at + 7], n[at + 8], n[at + 9], n[at + 10],
  ];
}

/** Every row of a state, as tuples. */
export function usageRows(state: UsageState): UsageRow[] {
  return Array.from({ length: rowCount(state) }, (_, i) => usageRow(state, i));
}

/** Appends a row to a state. */
export function pushRow(state: UsageState, row: UsageRow): void {
  let key = state.keys.indexOf(row[3]);
  if (key < 0) key = state.keys.push(row[3]) - 1;
  state.ids.push(row[1]);
  state.timestamps.push(row[2]);
  state.numbers.push(SOURCES.indexOf(row[0]), key);
  for (let k = 4; k < 13; k++) state.numbers.push(row[k] as number);
}

/** Adds row `i` of a state into totals, the way `addUsage` adds a usage object. */
export function addRowAt(totals: UsageTotals, state: UsageState, i: number): void {
  const n = state.numbers;
  const at = i * ROW_NUMBERS;
  totals.input += n[at + 2];
  totals.output += n[at + 3];
  totals.cacheRead += n[at + 4];
  totals.cacheWrite += n[at + 5];
  totals.totalTokens += n[at + 2] + n[at + 3] + n[at + 4] + n[at + 5];
  totals.cost.input += n[at + 6];
  totals.cost.output += n[at + 7];
  totals.cost.cacheRead += n[at + 8];
  totals.cost.cacheWrite += n[at + 9];
  totals.cost.total += n[at + 10];
}

const decoder = new TextDecoder();
const scratch: never[] = [];

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/**
 * A copy of `text` in one piece. Strings built by concatenation are trees of pieces in the
 * engines until something flattens them; a row keeps its strings for the whole run.
 */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text));
}

function makeRow(source: UsageSource, id: unknown, timestamp: unknown, key: string, usage: Record<string, unknown>): UsageRow {
  const cost = isObject(usage.cost) ? usage.cost : {};
  return [
    source,
    typeof id === "string" ? flat(id) : null,
    typeof timestamp === "string" ? flat(timestamp) : null,
    flat(key),
    num(usage.input), num(usage.output), num(usage.cacheRead), num(usage.cacheWrite),
    num(cost.input), num(cost.output), num(cost.cacheRead), num(cost.cacheWrite), num(cost.total),
  ];
}

function sourceOf(entry: SessionEntry): UsageSource {
  if (entry.type !== "message") return entry.type as UsageSource;
  return (entry as { message: { role: string } }).message.role === "assistant" ? "assistant" : "toolResult";
}

/** The slow path for lines the walk cannot read: a full parse. */
function rowFromParsed(line: RawLine): UsageRow | undefined {
  const decoded = decodeLine(line, { bom: false, crlf: false }, scratch);
  scratch.length = 0;
  if (decoded.kind !== "value" || !isObject(decoded.value)) return undefined;
  const entry = decoded.value as unknown as SessionEntry;
  const found = entryUsage(entry);
  if (!found || !isObject(found.usage)) return undefined;
  return makeRow(sourceOf(entry), entry.id, entry.timestamp, found.key, found.usage);
}

function parseSpan(b: Uint8Array, start: number, end: number): unknown {
  try {
    return JSON.parse(decoder.decode(b.subarray(start, end)));
  } catch {
    return undefined;
  }
}

/** The usage row of one entry line, if it carries usage pi would count. */
export function usageRowOfLine(line: RawLine): UsageRow | undefined {
  const b = line.bytes;
  const top: Record<string, string | undefined> = {};
  const msg: Record<string, string | undefined> = {};
  let usage: [number, number] | undefined;
  let msgUsage: [number, number] | undefined;
  let sawMessage = false;
  const str = (vs: number, target: Record<string, string | undefined>, key: string) => {
    const end = valueEnd(b, vs);
    if (end > vs) target[key] = stringValue(b, vs, end);
    return end;
  };
  const end = scanMembers(b, 0, (ks, ke, vs) => {
    for (const key of ["type", "id", "timestamp", "provider", "model"]) if (keyIs(b, ks, ke, key)) return str(vs, top, key);
    if (keyIs(b, ks, ke, "usage")) {
      const ve = valueEnd(b, vs);
      usage = [vs, ve];
      return ve;
    }
    if (top.type !== undefined && !["message", "usage", "compaction", "branch_summary"].includes(top.type)) return STOP;
    if (!keyIs(b, ks, ke, "message") || b[vs] !== 0x7b) return valueEnd(b, vs);
    sawMessage = true;
    return scanMembers(b, vs, (mks, mke, mvs) => {
      for (const key of ["role", "provider", "model", "responseModel"]) if (keyIs(b, mks, mke, key)) return str(mvs, msg, key);
      if (msg.role !== undefined && msg.role !== "assistant" && msg.role !== "toolResult") return STOP;
      if (!keyIs(b, mks, mke, "usage")) return valueEnd(b, mvs);
      const ve = valueEnd(b, mvs);
      msgUsage = [mvs, ve];
      return ve;
    });
  });
  if (end === -1) return rowFromParsed(line);
  const type = top.type;
  if (type === "message") {
    if (!sawMessage || !msgUsage || (msg.role !== "assistant" && msg.role !== "toolResult")) return undefined;
    const value = parseSpan(b, msgUsage[0], msgUsage[1]);
    if (!isObject(value)) return undefined;
    const key = msg.role === "assistant" ? `${msg.provider}/${msg.responseModel ?? msg.model}` : "Tools/summaries";
    return makeRow(msg.role === "assistant" ? "assistant" : "toolResult", top.id, top.timestamp, key, value);
  }
  if ((type === "usage" || type === "compaction" || type === "branch_summary") && usage) {
    const value = parseSpan(b, usage[0], usage[1]);
    if (!isObject(value)) return undefined;
    const key = type === "usage" ? `${top.provider}/${top.model}` : "Tools/summaries";
    return makeRow(type, top.id, top.timestamp, key, value);
  }
  return undefined;
}

/** Usage rows per session file. */
export const usageDigest: DigestKind<UsageState> = {
  name: "usage",
  // 2: rows column by column (1 kept one array per row).
  version: 2,
  initial: () => ({ keys: [], ids: [], timestamps: [], numbers: [] }),
  entry(data, line) {
    const row = usageRowOfLine(line);
    if (row) pushRow(data, row);
  },
};
