/**
 * The usage rows of one session file, as `stats` keeps them for every session at once: numbers
 * in one typed array per file, outside the JavaScript heap, which the garbage collector neither
 * copies nor scans (tens of thousands of rows as strings and arrays grew its young generation,
 * and the process, by tens of megabytes). Stored as JSON around one packed string
 * (`encodeUsage`, usage-pack.ts).
 * @module
 */
import type { UsageTotals } from "../info/usage-totals.ts";
import { isObject } from "../read/decode-line.ts";
import { exactTime, exactTimeText, hexId, hexIdText } from "./entry-stamp.ts";
import { packRows, unpackRows } from "./usage-pack.ts";

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
 * The rows of one file, in file order. A row whose entry id is 8 lowercase hex digits and whose
 * timestamp `toISOString` writes back unchanged (pi's own) keeps both as numbers; any other row
 * keeps both strings in `odd`.
 */
export interface UsageState {
  /** The file's cost keys, each once, in order of first use. */
  keys: string[];
  /**
   * `ROW_NUMBERS` per row: source (index into the sources), key index, id (or `ODD_ID`), time in
   * ms, then the tokens and costs in `UsageRow` order. A view of the rows only; its buffer may
   * have room for more.
   */
  numbers: Float64Array;
  /** `[row, id, timestamp]` of each row whose id is `ODD_ID`, in row order. */
  odd: [number, string | null, string | null][];
}

/** How many numbers `UsageState.numbers` holds per row. */
export const ROW_NUMBERS = 13;

/** The id of a row whose id and timestamp are in `UsageState.odd`. */
export const ODD_ID = -1;

/** A state without rows. */
export function emptyUsageState(): UsageState {
  return { keys: [], numbers: new Float64Array(0), odd: [] };
}

/** How many rows a state holds. */
export function rowCount(state: UsageState): number {
  return state.numbers.length / ROW_NUMBERS;
}

/** The cost key of row `i`. */
export function rowKey(state: UsageState, i: number): string {
  return state.keys[state.numbers[i * ROW_NUMBERS + 1]];
}

function oddRow(state: UsageState, i: number): [number, string | null, string | null] {
  // Odd rows are rare (files without ids): a binary search over their row numbers.
  let [lo, hi] = [0, state.odd.length - 1];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (state.odd[mid][0] < i) lo = mid + 1;
    else hi = mid;
  }
  return state.odd[lo];
}

/** Row `i`'s entry id and timestamp as written (null where the entry had none). */
export function rowEntry(state: UsageState, i: number): [id: string | null, timestamp: string | null] {
  const id = state.numbers[i * ROW_NUMBERS + 2];
  if (id === ODD_ID) {
    const [, oddId, timestamp] = oddRow(state, i);
    return [oddId, timestamp];
  }
  return [hexIdText(id), exactTimeText(state.numbers[i * ROW_NUMBERS + 3])];
}

/** Row `i`'s time in ms, NaN when its timestamp is not a time. */
export function rowTime(state: UsageState, i: number): number {
  if (state.numbers[i * ROW_NUMBERS + 2] !== ODD_ID) return state.numbers[i * ROW_NUMBERS + 3];
  const timestamp = oddRow(state, i)[2];
  return timestamp === null ? NaN : Date.parse(timestamp);
}

/** Row `i` of a state as a tuple. */
export function usageRow(state: UsageState, i: number): UsageRow {
  const n = state.numbers;
  const at = i * ROW_NUMBERS;
  const [id, timestamp] = rowEntry(state, i);
  return [
    SOURCES[n[at]], id, timestamp, state.keys[n[at + 1]],
    n[at + 4], n[at + 5], n[at + 6], n[at + 7],
    n[at + 8], n[at + 9], n[at + 10], n[at + 11], n[at + 12],
  ];
}

/** Every row of a state, as tuples. */
export function usageRows(state: UsageState): UsageRow[] {
  return Array.from({ length: rowCount(state) }, (_, i) => usageRow(state, i));
}

/**
 * A copy of `text` in one piece. Strings built by concatenation are trees of pieces in the
 * engines until something flattens them; a state keeps its strings for the whole run.
 */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text));
}

/** Makes room for one more row and returns where it starts. */
function grow(state: UsageState): number {
  const count = rowCount(state);
  const at = count * ROW_NUMBERS;
  let buffer = state.numbers.buffer;
  if ((at + ROW_NUMBERS) * 8 > buffer.byteLength) {
    // Room for half as many rows again: a file's rows are copied log(rows) times at most.
    const grown = new Float64Array(Math.max(8, Math.ceil(count * 1.5)) * ROW_NUMBERS);
    grown.set(state.numbers);
    buffer = grown.buffer;
  }
  state.numbers = new Float64Array(buffer, 0, at + ROW_NUMBERS);
  return at;
}

function keyIndex(state: UsageState, key: string): number {
  const index = state.keys.indexOf(key);
  return index >= 0 ? index : state.keys.push(flat(key)) - 1;
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** Writes a usage object's tokens and costs (a missing or odd number as 0) into `out` from `at`, in `UsageRow` order. */
function writeUsage(usage: Record<string, unknown>, out: Float64Array | number[], at: number): void {
  const cost = isObject(usage.cost) ? usage.cost : {};
  out[at] = num(usage.input);
  out[at + 1] = num(usage.output);
  out[at + 2] = num(usage.cacheRead);
  out[at + 3] = num(usage.cacheWrite);
  out[at + 4] = num(cost.input);
  out[at + 5] = num(cost.output);
  out[at + 6] = num(cost.cacheRead);
  out[at + 7] = num(cost.cacheWrite);
  out[at + 8] = num(cost.total);
}

/** The row of a usage object: an id or timestamp that is not a string becomes null. */
export function rowOfUsage(source: UsageSource, id: unknown, timestamp: unknown, key: string, usage: Record<string, unknown>): UsageRow {
  const numbers: number[] = [];
  writeUsage(usage, numbers, 0);
  return [source, typeof id === "string" ? id : null, typeof timestamp === "string" ? timestamp : null, key, ...numbers] as UsageRow;
}

/** Drops the room the rows' buffer has for more rows. */
export function compactUsage(state: UsageState): void {
  if (state.numbers.buffer.byteLength > state.numbers.byteLength) state.numbers = state.numbers.slice();
}

/** Appends the row of a usage object whose entry's id and time are already numbers (see `entry-stamp.ts`). */
export function pushStampedRow(state: UsageState, source: UsageSource, key: string, id: number, ms: number, usage: Record<string, unknown>): void {
  const keyNumber = keyIndex(state, key);
  const at = grow(state);
  const n = state.numbers;
  n[at] = SOURCES.indexOf(source);
  n[at + 1] = keyNumber;
  n[at + 2] = id;
  n[at + 3] = ms;
  writeUsage(usage, n, at + 4);
}

/** Appends a row. */
export function pushRow(state: UsageState, row: UsageRow): void {
  const [source, id, timestamp, key] = row;
  const keyNumber = keyIndex(state, key);
  const idNumber = id === null ? undefined : hexId(id);
  const ms = timestamp === null ? undefined : exactTime(timestamp);
  const at = grow(state);
  const n = state.numbers;
  n[at] = SOURCES.indexOf(source);
  n[at + 1] = keyNumber;
  if (idNumber !== undefined && ms !== undefined) {
    n[at + 2] = idNumber;
    n[at + 3] = ms;
  } else {
    n[at + 2] = ODD_ID;
    n[at + 3] = 0;
    state.odd.push([at / ROW_NUMBERS, id === null ? null : flat(id), timestamp === null ? null : flat(timestamp)]);
  }
  for (let k = 4; k < 13; k++) n[at + k] = row[k] as number;
}

/** Adds row `i` of a state into totals, the way `addUsage` adds a usage object. */
export function addRowAt(totals: UsageTotals, state: UsageState, i: number): void {
  const n = state.numbers;
  const at = i * ROW_NUMBERS;
  totals.input += n[at + 4];
  totals.output += n[at + 5];
  totals.cacheRead += n[at + 6];
  totals.cacheWrite += n[at + 7];
  totals.totalTokens += n[at + 4] + n[at + 5] + n[at + 6] + n[at + 7];
  totals.cost.input += n[at + 8];
  totals.cost.output += n[at + 9];
  totals.cost.cacheRead += n[at + 10];
  totals.cost.cacheWrite += n[at + 11];
  totals.cost.total += n[at + 12];
}

/** A state as stored: plain JSON, its rows' numbers packed into one string (usage-pack.ts). */
interface StoredUsage {
  keys: string[];
  rows: number;
  packed: string;
  odd: [number, string | null, string | null][];
}

/** A state as JSON. */
export function encodeUsage(state: UsageState): StoredUsage {
  return { keys: state.keys, rows: rowCount(state), packed: packRows(state.numbers), odd: state.odd };
}

const isText = (v: unknown): v is string => typeof v === "string";
const isTextOrNull = (v: unknown) => v === null || typeof v === "string";

/** Numbers of room a `UsageScratch` keeps between two states (512 KB): a larger room is let go. */
const ROOM_KEPT = 1 << 16;
/** The scratch's first room, in numbers. */
const SCRATCH_START = 1024;

/**
 * Room for the numbers of one state at a time, for a reader that drops each state before it
 * decodes the next (`stats`: 223,000 rows of 25,000 sessions were 23 MB of arrays made and
 * dropped). The array grows to the state's that needs it; each state's numbers are a view of
 * it. Grown past `ROOM_KEPT` numbers, it is let go once that state is done (`done`): the room
 * of the 1.2 GB session's 67,000 rows (7 MB) was otherwise kept through a whole walk.
 */
export class UsageScratch {
  #numbers = new Float64Array(SCRATCH_START);

  /** The first `length` numbers of the room, grown to hold them (what they held is gone). */
  readonly take = (length: number): Float64Array => {
    if (this.#numbers.length < length) this.#numbers = new Float64Array(Math.max(length, Math.min(this.#numbers.length * 2, ROOM_KEPT)));
    return this.#numbers.subarray(0, length);
  };

  /** The state taken last is done with: a room larger than `ROOM_KEPT` numbers goes. */
  done(): void {
    if (this.#numbers.length > ROOM_KEPT) this.#numbers = new Float64Array(SCRATCH_START);
  }

  /** Numbers of room held now. */
  get room(): number {
    return this.#numbers.length;
  }
}


/**
 * A state back from `encodeUsage`'s JSON; throws `SyntaxError` for anything it cannot have made.
 * With `scratch`, its numbers are a view of the scratch's room, good until the next state is
 * decoded into it.
 */
export function decodeUsage(stored: unknown, scratch?: UsageScratch): UsageState {
  const bad = (what: string) => new SyntaxError(`a stored usage state ${what}`);
  if (!isObject(stored) || !Array.isArray(stored.keys) || typeof stored.packed !== "string" || !Array.isArray(stored.odd)) throw bad("has the wrong shape");
  const { keys, rows, packed, odd } = stored as unknown as StoredUsage;
  if (!keys.every(isText)) throw bad("has a key that is not a string");
  const numbers = unpackRows(packed, rows, scratch?.take);
  const oddRows: number[] = [];
  for (let at = 0; at < numbers.length; at += ROW_NUMBERS) {
    // The source is one of the five by how it is packed; the key must be one of the file's.
    const key = numbers[at + 1];
    if (!Number.isInteger(key) || key < 0 || key >= keys.length) throw bad(`row ${at / ROW_NUMBERS} names no cost key`);
    if (numbers[at + 2] === ODD_ID) oddRows.push(at / ROW_NUMBERS);
  }
  const listed = odd.length === oddRows.length &&
    odd.every((o, j) => Array.isArray(o) && o.length === 3 && o[0] === oddRows[j] && isTextOrNull(o[1]) && isTextOrNull(o[2]));
  if (!listed) throw bad("lists its odd rows wrongly");
  return { keys, numbers, odd };
}
