/**
 * One resumable pass over a session file. A `DigestKind` folds entry lines into a state that
 * stores keep as JSON; a `Digester` feeds it, finds the header, and can start where an earlier pass ended,
 * which is how the catalog reads only the new tail of an append-only file.
 * @module
 */
import { listingHeaderLine } from "../info/session-info.ts";
import { LineSplitter, type RawLine } from "../read/line-splitter.ts";

/** The header fields digests keep (raw JSON values, as found). */
export interface HeaderFacts {
  id?: unknown;
  timestamp?: unknown;
  cwd?: unknown;
  parentSession?: unknown;
  version?: unknown;
}

/** What a digest remembers about a file: its header, whether it is a session, and its data. */
export interface DigestState<S> {
  header: HeaderFacts | null;
  /** The first parsed line was not a header: not a session. */
  rejected: boolean;
  /** Set when that line was a `{"type":"session"}` header that cannot be used: why (`headerProblem`). */
  badHeader?: string;
  data: S;
}

/**
 * A kind of digest. `entry` sees every line after the header, with file-absolute `number` and
 * `offset`, and may `emit` rows that are not kept in the state (search documents).
 */
export interface DigestKind<S, D = never> {
  /** Names the catalog section; also part of cache keys. */
  readonly name: string;
  /** Bump when the state's meaning changes: cached states of other versions are dropped. */
  readonly version: number;
  initial(): S;
  entry(data: S, line: RawLine, header: HeaderFacts, emit: (row: D) => void): void;
  /**
   * The state as JSON, for a state that is not plain JSON itself (typed arrays, say), and back
   * (`decode` throws for what `encode` cannot have made). Stores call them; without them, a
   * state is stored as it is. Either way a state must survive `structuredClone`.
   */
  encode?(data: S): unknown;
  decode?(stored: unknown): S;
  /** Gives back room a state keeps for growing, once a pass is done with it (the catalog keeps states of every file). */
  compact?(data: S): void;
  /** Long texts no store's query reads into: a store may keep the states compressed. */
  readonly packed?: boolean;
}

/** Where a pass stands: the state after the last complete line, and that line's end. */
export interface DigestPoint<S> {
  state: DigestState<S>;
  /** Bytes consumed: the offset just past the last `\n` read. */
  end: number;
  /** Lines consumed. */
  lines: number;
}

/** A finished pass. `final` is set when a last line without `\n` changed the state. */
export interface DigestResult<S> extends DigestPoint<S> {
  final?: DigestState<S>;
}

const HEADER_KEYS = ["id", "timestamp", "cwd", "parentSession", "version"] as const;

function headerFacts(header: Record<string, unknown>): HeaderFacts {
  const facts: Record<string, unknown> = {};
  for (const key of HEADER_KEYS) if (header[key] !== undefined) facts[key] = header[key];
  return facts;
}

/** The state of a pass that has read nothing. */
export function initialDigest<S>(kind: DigestKind<S, unknown>): DigestState<S> {
  return { header: null, rejected: false, data: kind.initial() };
}

/**
 * Feeds bytes to a digest kind, starting at 0 or where `from` ended (pass the bytes from
 * `from.end` on). A last line without `\n` is folded into `final` only, so the resumed state
 * never counts a line twice when it is completed by a later append.
 *
 * @example
 * ```ts
 * const d = new Digester(listingDigest);
 * d.push(new TextEncoder().encode('{"type":"session","id":"s","timestamp":"t","cwd":"/"}\n'));
 * d.finish().end; // 55
 * ```
 */
export class Digester<S, D = never> {
  readonly kind: DigestKind<S, D>;
  /** File offset of the first byte this pass expects. */
  readonly base: number;
  #baseLines: number;
  #state: DigestState<S>;
  #atEnd: DigestState<S> | undefined;
  #end: number;
  #lines: number;
  #emit: (row: D) => void;
  #splitter = new LineSplitter((line) => this.line(line));

  constructor(kind: DigestKind<S, D>, from?: DigestPoint<S>, emit: (row: D) => void = () => {}) {
    this.kind = kind;
    this.base = from?.end ?? 0;
    this.#baseLines = from?.lines ?? 0;
    this.#state = from ? structuredClone(from.state) : initialDigest(kind);
    this.#end = this.base;
    this.#lines = this.#baseLines;
    this.#emit = emit;
  }

  /** False once the file is known not to be a session: the rest need not be read. */
  get wanted(): boolean {
    return !this.#state.rejected;
  }

  push(chunk: Uint8Array): void {
    this.#splitter.push(chunk);
  }

  /**
   * Takes one line already split (its `number` and `offset` counted from `base`), instead of
   * bytes through `push`: for digests of one file that share a `LineSplitter`, so that each
   * line is cut out once and the parse of its entry is shared too (`lineEntry`).
   */
  line(raw: RawLine): void {
    this.#onLine(raw);
  }

  finish(): DigestResult<S> {
    this.#splitter.end();
    const point = { end: this.#end, lines: this.#lines };
    this.kind.compact?.(this.#state.data);
    if (this.#atEnd === undefined) return { ...point, state: this.#state };
    this.kind.compact?.(this.#atEnd.data);
    return { ...point, state: this.#atEnd, final: this.#state };
  }

  #onLine(raw: RawLine): void {
    const line: RawLine = {
      bytes: raw.bytes,
      number: this.#baseLines + raw.number,
      offset: this.base + raw.offset,
      terminated: raw.terminated,
    };
    if (line.terminated) {
      this.#end = line.offset + line.bytes.length + 1;
      this.#lines = line.number;
    } else {
      this.#atEnd = structuredClone(this.#state);
    }
    const state = this.#state;
    if (state.rejected) return;
    if (state.header) return this.kind.entry(state.data, line, state.header, this.#emit);
    const found = listingHeaderLine(line, (problem) => state.badHeader = problem);
    if (found === null) state.rejected = true;
    else if (found) state.header = headerFacts(found);
  }
}
