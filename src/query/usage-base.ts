/**
 * What an answer made from every session's usage was made from (its base), kept beside it so
 * that the next answer goes on from it when only a few sessions changed: `stats --all` of 25,000
 * sessions read every usage state again (0.75-0.84 s) each time pi had written to one of them.
 *
 * A base holds the answer's own state (unrounded sums), every entry seen with the number of the
 * session that holds it first (its owner), and per session its number of rows, a fingerprint of
 * those rows and of its header, and its header time; and the parents that no session answered.
 * The store logs which files' records were written since (sqlite-answers.ts). The answer goes on
 * only where that gives the same answer as a walk over every session in attribution order:
 *
 * - a session that grew (its header and its earlier rows the same) adds its new rows;
 * - a new session adds its rows, when no session names it as parent, and every entry of it that
 *   was seen is held first by itself or by its parent (older by header time, so before it);
 * - a file that neither is nor was a session (and has no header to note) changes nothing.
 *
 * Anything else (a session gone or rewritten, an entry first held elsewhere) is made again from
 * every session, and a new base kept.
 * @module
 */
import { Fingerprint } from "../core/digest/hash-bytes.ts";
import { rowCount, ROW_NUMBERS, type UsageState } from "../core/digest/usage-state.ts";
import { usageDigest } from "../core/digest/usage-digest.ts";
import { type SavedEntries, SeenEntries, type UsageSession } from "../core/stats/attribution.ts";
import { normalizePath } from "../core/storage/paths.ts";
import { type AnswerStore, type CatalogStore, recordState } from "../catalog/store.ts";
import type { SessionScope } from "./scope.ts";
import { usageSessionOfState } from "./usage-sessions.ts";

/** Files written since the base, at most, for an answer to go on from it. */
export const BASE_CHANGES_MOST = 256;

/** Bumped when what a base holds, or how it is laid out, changes. */
const BASE_FORM = 1;

/** An answer that can be kept with its base and go on from one. */
export interface ResumableAnswer {
  /** What the walk's visitor holds once every session went by (JSON, and the entries seen). */
  save(): { answer: unknown; seen: SavedEntries };
  /** A visitor going on from a saved one; undefined when `answer` does not read. */
  resume(answer: unknown, seen: SeenEntries): GoingOn | undefined;
}

/** A visitor made again from a base: it is given the rows each changed session gained. */
export interface GoingOn {
  /**
   * Adds `session`'s rows from `from` on (the earlier ones it added before); false when an
   * entry is held first by a session that `before` does not put before it.
   */
  extend(session: UsageSession, owner: number, from: number, before: (owner: number) => boolean): boolean;
  /** The answer now, as `KeptAnswer.made` keeps it (and to be kept with the new base). */
  made(): string | undefined;
  save(): { answer: unknown; seen: SavedEntries };
}

/** The fingerprint of a state's first `rows` rows: their numbers, the cost keys they name, their odd ids. */
export function rowsFingerprint(state: UsageState, rows: number): number {
  const print = new Fingerprint().numbers(state.numbers.subarray(0, rows * ROW_NUMBERS));
  let keys = 0;
  for (let i = 0; i < rows; i++) keys = Math.max(keys, state.numbers[i * ROW_NUMBERS + 1] + 1);
  for (let k = 0; k < keys; k++) print.text(state.keys[k]);
  for (const [row, id, timestamp] of state.odd) {
    if (row >= rows) break;
    print.number(row).text(id ?? "\u0000null").text(timestamp ?? "\u0000null");
  }
  return print.value();
}

/**
 * The fingerprint of what puts a session in order and groups it besides its path: id, header
 * time, parent, cwd. The path goes with the store's number for the file, which another path gets
 * only once the file's record was dropped (and then the session is not gone on from).
 */
export function headerFingerprint(session: UsageSession): number {
  return new Fingerprint().text(session.id).text(session.created).text(session.parentSession ?? "\u0000none").text(session.cwd).value();
}

/** A header time as attribution order puts it (Infinity when it is not a time). */
function createdMs(session: UsageSession): number {
  const ms = Date.parse(session.created);
  return Number.isNaN(ms) ? Infinity : ms;
}

/** What a base keeps of a session: its file's number, rows, their fingerprint, its header's, its header time. */
type SessionFacts = [file: number, rows: number, print: number, header: number, created: number];

/** Per session (by the store's number for its file): rows, their fingerprint, the header's, its header time. */
class SessionTable {
  files: Uint32Array;
  rows: Uint32Array;
  prints: Float64Array;
  headers: Float64Array;
  created: Float64Array;

  constructor(n: number) {
    this.files = new Uint32Array(n);
    this.rows = new Uint32Array(n);
    this.prints = new Float64Array(n);
    this.headers = new Float64Array(n);
    this.created = new Float64Array(n);
  }

  get length(): number {
    return this.files.length;
  }

  /** Where `file` is, or -1. */
  find(file: number): number {
    let [lo, hi] = [0, this.files.length - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.files[mid] === file) return mid;
      if (this.files[mid] < file) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** A table of these sessions, sorted by file number. */
  static of(entries: readonly SessionFacts[]): SessionTable {
    const sorted = [...entries].sort((a, b) => a[0] - b[0]);
    const table = new SessionTable(sorted.length);
    sorted.forEach(([file, rows, print, header, created], i) => {
      table.files[i] = file;
      table.rows[i] = rows;
      table.prints[i] = print;
      table.headers[i] = header;
      table.created[i] = created;
    });
    return table;
  }

  /** This table with `added` sessions put in. */
  with(added: readonly SessionFacts[]): SessionTable {
    if (added.length === 0) return this;
    const all: SessionFacts[] = [];
    for (let i = 0; i < this.length; i++) all.push([this.files[i], this.rows[i], this.prints[i], this.headers[i], this.created[i]]);
    return SessionTable.of([...all, ...added]);
  }
}

/** What a walk over every session gathers for its base, a session at a time. */
export class BaseRecorder {
  /** Each session's facts, one after another (no array of its own). */
  #sessions: number[] = [];
  /** False once a file's number is not one the base can keep (32 bits). */
  #keepable = true;
  /** Parents (normalized) that are none of the sessions, as attribution order found them. */
  readonly #dangling: ReadonlySet<string>;

  constructor(dangling: ReadonlySet<string>) {
    this.#dangling = dangling;
  }

  /** A session as it goes by, with the store's number for its file. */
  add(session: UsageSession, file: number): void {
    if (!(file >= 0 && file <= 0xffff_ffff && Number.isInteger(file))) this.#keepable = false;
    const rows = rowCount(session.usage);
    this.#sessions.push(file, rows, rowsFingerprint(session.usage, rows), headerFingerprint(session), createdMs(session));
  }

  /** The base once every session went by, with the visitor's state; undefined when it cannot be kept. */
  bytes(saved: { answer: unknown; seen: SavedEntries }): Uint8Array | undefined {
    if (!this.#keepable) return undefined;
    const sessions: SessionFacts[] = [];
    for (let at = 0; at < this.#sessions.length; at += 5) sessions.push(this.#sessions.slice(at, at + 5) as SessionFacts);
    this.#sessions = [];
    return encodeBase(saved, SessionTable.of(sessions), [...this.#dangling]);
  }
}

interface Base {
  answer: unknown;
  seen: SavedEntries;
  sessions: SessionTable;
  /** Parents (normalized paths) that no session answered: a new session there reorders others. */
  dangling: Set<string>;
}

/** Bytes of the typed arrays, laid out one after another, each at a multiple of 8. */
const padded = (n: number) => Math.ceil(n / 8) * 8;

function encodeBase(saved: { answer: unknown; seen: SavedEntries }, sessions: SessionTable, dangling: string[]): Uint8Array {
  const { seen } = saved;
  const head = new TextEncoder().encode(JSON.stringify({
    form: BASE_FORM,
    answer: saved.answer,
    odd: seen.odd,
    pairs: seen.times.length,
    sessions: sessions.length,
    dangling,
  }));
  const arrays: ArrayBufferView[] = [seen.times, seen.ids, seen.owners, sessions.files, sessions.rows, sessions.prints, sessions.headers, sessions.created];
  let size = 8 + padded(head.length);
  for (const array of arrays) size += padded(array.byteLength);
  const bytes = new Uint8Array(size);
  new DataView(bytes.buffer).setUint32(0, head.length, true);
  bytes.set(head, 8);
  let at = 8 + padded(head.length);
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += padded(array.byteLength);
  }
  return bytes;
}

/** A base back from its bytes; undefined when they are not one this version made. */
function decodeBase(bytes: Uint8Array): Base | undefined {
  try {
    const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
    const head = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
    if (head?.form !== BASE_FORM || !Number.isInteger(head.pairs) || !Number.isInteger(head.sessions) || !Array.isArray(head.odd) || !Array.isArray(head.dangling)) return undefined;
    let at = 8 + padded(length);
    // Each array copied out, at its own aligned buffer.
    const take = <T>(make: (buffer: ArrayBuffer) => T, count: number, width: number): T => {
      const part = bytes.slice(at, at + count * width);
      if (part.length !== count * width) throw new RangeError("a base cut short");
      at += padded(count * width);
      return make(part.buffer);
    };
    const pairs = head.pairs as number;
    const n = head.sessions as number;
    const seen: SavedEntries = {
      times: take((b) => new Float64Array(b), pairs, 8),
      ids: take((b) => new Uint32Array(b), pairs, 4),
      owners: take((b) => new Uint32Array(b), pairs, 4),
      odd: head.odd,
    };
    const sessions = new SessionTable(0);
    sessions.files = take((b) => new Uint32Array(b), n, 4);
    sessions.rows = take((b) => new Uint32Array(b), n, 4);
    sessions.prints = take((b) => new Float64Array(b), n, 8);
    sessions.headers = take((b) => new Float64Array(b), n, 8);
    sessions.created = take((b) => new Float64Array(b), n, 8);
    return { answer: head.answer, seen, sessions, dangling: new Set(head.dangling) };
  } catch {
    return undefined;
  }
}

/**
 * Whether `path` is one of the scope's session files: by its folder's names where the scope was
 * listed (its 25,000 paths, where not made yet, are not made for a few).
 */
function scopeHas(scope: SessionScope): (path: string) => boolean {
  const listing = scope.listing;
  if (!listing) return (path) => scope.files.includes(path);
  const folders = new Set(listing.folders);
  return (path) => {
    const at = path.lastIndexOf("/");
    const folder = path.slice(0, at);
    if (!folders.has(folder)) return false;
    const { stem, names } = listing.namesIn(folder);
    return path.startsWith(stem) && names.includes(path.slice(stem.length));
  };
}

/**
 * The answer gone on from the store's base for `key`, now at `generation`, and the new base
 * kept; undefined when it cannot go on (see the module comment).
 */
export async function answerFromBase(
  store: CatalogStore,
  answers: AnswerStore,
  key: string,
  generation: number,
  scope: SessionScope,
  resumable: ResumableAnswer,
): Promise<string | undefined> {
  const kept = answers.loadBase?.(usageDigest, key, generation, BASE_CHANGES_MOST);
  if (!kept || !store.loadPaths || !answers.fileNumber) return undefined;
  const base = decodeBase(kept.body);
  if (!base || kept.changed.some((change) => change.path === null)) return undefined;
  const inScope = scopeHas(scope);
  const paths = kept.changed.map((change) => change.path!);
  const records = await store.loadPaths(usageDigest, paths.filter(inScope));
  const { sessions, dangling } = base;
  // Sessions that grew first (what they gained was held by no one before), then new ones, oldest first.
  const grown: [UsageSession, number, number][] = [];
  const added: [UsageSession, number][] = [];
  for (const { file, path, dropped } of kept.changed) {
    const record = inScope(path!) ? records.get(path!) : undefined;
    const state = record && recordState(record);
    // A header to note (a walk tells it, and keeps no answer): walked.
    if (state?.badHeader !== undefined) return undefined;
    const session = state && usageSessionOfState(path!, state);
    const at = sessions.find(file);
    if (dropped && at >= 0) return undefined;
    if (!session) {
      // Neither a session before nor now: nothing to add. A session gone: made again.
      if (at >= 0) return undefined;
      continue;
    }
    if (at < 0) added.push([session, file]);
    else {
      const rows = sessions.rows[at];
      if (sessions.headers[at] !== headerFingerprint(session) || rowCount(session.usage) < rows) return undefined;
      if (rowsFingerprint(session.usage, rows) !== sessions.prints[at]) return undefined;
      grown.push([session, file, at]);
    }
  }
  // Only now the entries seen (150,000 of them put in a table again): most changes that cannot be
  // gone on from are found above.
  const seen = SeenEntries.from(base.seen);
  const visitor = seen && resumable.resume(base.answer, seen);
  if (!visitor) return undefined;
  for (const [session, file, at] of grown) {
    // What it gained is held by no one else before it (pi appends new entries): a parent's
    // place before it is not taken for granted (in a cycle of parents it need not be).
    if (!visitor.extend(session, file, sessions.rows[at], (owner) => owner === file)) return undefined;
    const rows = rowCount(session.usage);
    sessions.rows[at] = rows;
    sessions.prints[at] = rowsFingerprint(session.usage, rows);
  }
  added.sort(([a], [b]) => createdMs(a) - createdMs(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const news: SessionFacts[] = [];
  const newAt = new Map<number, number>();
  for (const [session, file] of added) {
    if (dangling.has(normalizePath(session.path)) || file > 0xffff_ffff) return undefined;
    const parent = parentFile(session);
    const parentAt = parent === undefined ? -1 : sessions.find(parent);
    const parentCreated = parentAt >= 0 ? sessions.created[parentAt] : newAt.has(parent!) ? news[newAt.get(parent!)!][4] : undefined;
    // Its parent, where it is one of the sessions, comes before it by header time: else a walk up
    // from it would take the parent out of its place, before sessions it may share entries with.
    if (parentCreated !== undefined && !(parentCreated < createdMs(session))) return undefined;
    if (!visitor.extend(session, file, 0, (owner) => owner === file || (parentCreated !== undefined && owner === parent))) return undefined;
    if (session.parentSession !== undefined && parentCreated === undefined) dangling.add(normalizePath(session.parentSession));
    const rows = rowCount(session.usage);
    newAt.set(file, news.length);
    news.push([file, rows, rowsFingerprint(session.usage, rows), headerFingerprint(session), createdMs(session)]);
  }
  const body = visitor.made();
  if (body === undefined) return undefined;
  const bytes = encodeBase(visitor.save(), sessions.with(news), [...dangling]);
  try {
    if (answers.saveBase?.(usageDigest, key, generation, bytes)) answers.save(usageDigest, key, generation, body);
  } catch {
    // The next run goes on from the base it finds.
  }
  return body;

  /** The store's number for the file of the session's parent, if it has one. */
  function parentFile(session: UsageSession): number | undefined {
    return session.parentSession === undefined ? undefined : answers.fileNumber!(normalizePath(session.parentSession));
  }
}
