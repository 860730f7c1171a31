/**
 * The summary pi shows for a session in lists and pickers (pi's `SessionInfo`), computed
 * in one streaming pass that parses only the lines it needs. The pass keeps plain-JSON
 * state (`ListingState`), so the catalog can store it and resume after an append.
 * @module
 */
import { decodeLine, isObject } from "../read/decode-line.ts";
import { headerProblem } from "../read/header-problem.ts";
import { LineSplitter, type RawLine } from "../read/line-splitter.ts";
import { isNullValue, keyIs, numberValue, stringValue, valueEnd } from "../read/scan-keys.ts";
import { scanMembers, STOP } from "../digest/scan-members.ts";

/** pi's SessionInfo, field for field. */
export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: Date;
  modified: Date;
  messageCount: number;
  firstMessage: string;
  /** User and assistant texts joined by spaces; only filled when asked for (search). */
  allMessagesText: string;
}

/** What a listing keeps between entry lines: plain JSON, so it can be cached and resumed. */
export interface ListingState {
  name?: string;
  messageCount: number;
  firstMessage: string;
  lastActivity?: number;
}

/** The state before any entry line. */
export function emptyListing(): ListingState {
  return { messageCount: 0, firstMessage: "" };
}

/** What a message line tells without parsing its content. */
interface MessageFacts {
  role?: string;
  hasContent: boolean;
  timestamp?: number;
}

/** What `scanMessage` found; one object, reused line after line. */
interface LineFacts {
  bytes: Uint8Array;
  type?: string;
  timestamp?: string;
  message?: MessageFacts;
}

// The visitors are module-level functions over this shared state rather than closures made per
// line: lines are scanned one at a time, and per-line closures cost more than the scan itself.
const found: LineFacts = { bytes: new Uint8Array(0) };

function visitMessageMember(ks: number, ke: number, vs: number): number {
  const b = found.bytes;
  const facts = found.message!;
  const ve = valueEnd(b, vs);
  if (keyIs(b, ks, ke, "role")) facts.role = stringValue(b, vs, ve);
  else if (keyIs(b, ks, ke, "content")) facts.hasContent = true;
  else if (keyIs(b, ks, ke, "timestamp")) facts.timestamp = isNullValue(b, vs, ve) ? undefined : numberValue(b, vs, ve);
  return ve;
}

function visitEntryMember(ks: number, ke: number, vs: number): number {
  const b = found.bytes;
  if (keyIs(b, ks, ke, "type")) {
    const end = valueEnd(b, vs);
    if (end > vs) found.type = stringValue(b, vs, end);
    return end;
  }
  if (keyIs(b, ks, ke, "timestamp")) {
    const end = valueEnd(b, vs);
    if (end > vs) found.timestamp = stringValue(b, vs, end);
    return end;
  }
  if (!keyIs(b, ks, ke, "message") || b[vs] !== 0x7b) return valueEnd(b, vs);
  found.message = { hasContent: false };
  const inner = scanMembers(b, vs, visitMessageMember);
  if (inner >= 0) return inner;
  // A message whose brackets close but whose members do not parse is taken as a message
  // without facts; one that never closes (a torn line) makes the whole line unreadable.
  found.message = undefined;
  return valueEnd(b, vs) < 0 ? -1 : STOP;
}

/**
 * The type, timestamp and message facts of an entry line, walking its bytes once; null when the
 * line is not a complete object (the caller then parses it to see why). Valid until the next call.
 */
function scanMessage(b: Uint8Array): Readonly<LineFacts> | null {
  found.bytes = b;
  found.type = found.timestamp = found.message = undefined;
  return scanMembers(b, 0, visitEntryMember) === -1 ? null : found;
}

function textOf(message: Record<string, unknown>): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((block) => block?.type === "text").map((block) => block.text).join(" ");
}

const scratch: never[] = [];

function parseObject(line: RawLine): Record<string, unknown> | undefined {
  const decoded = decodeLine(line, { bom: false, crlf: false }, scratch);
  scratch.length = 0;
  return decoded.kind === "value" && isObject(decoded.value) ? decoded.value : undefined;
}

/**
 * How a listing treats a line while it still looks for the header: `undefined` to skip it
 * (blank or unparseable), the header object, or `null` when the file is not a session. A
 * `{"type":"session"}` line that cannot be a header (`headerProblem`) is null too, and `onBad`
 * hears why.
 */
export function listingHeaderLine(line: RawLine, onBad?: (problem: string) => void): Record<string, unknown> | null | undefined {
  const value = parseObject(line);
  if (value === undefined) return undefined;
  if (value.type !== "session") return null;
  const problem = headerProblem(value);
  if (problem === undefined) return value;
  onBad?.(problem);
  return null;
}

function addText(state: ListingState, message: Record<string, unknown>, texts: string[] | undefined): void {
  // Without `texts`, only the first user message's text is wanted: no other is joined.
  if (!texts && (state.firstMessage || message.role !== "user")) return;
  const text = textOf(message);
  if (!text) return;
  texts?.push(text);
  if (!state.firstMessage && message.role === "user") state.firstMessage = text;
}

/** A line the scan could not handle, or a session_info: use the parsed object. */
function addParsed(state: ListingState, value: Record<string, unknown>, texts: string[] | undefined): void {
  if (value.type === "session_info") {
    state.name = typeof value.name === "string" ? value.name.trim() || undefined : undefined;
    if (state.name === undefined) delete state.name;
    return;
  }
  if (value.type !== "message" || !isObject(value.message)) return;
  state.messageCount++;
  const message = value.message;
  if (typeof message.role !== "string" || !("content" in message)) return;
  if (message.role !== "user" && message.role !== "assistant") return;
  const activity = typeof message.timestamp === "number" ? message.timestamp : new Date(value.timestamp as string).getTime();
  if (!Number.isNaN(activity)) state.lastActivity = Math.max(state.lastActivity ?? 0, activity);
  addText(state, message, texts);
}

/**
 * The listing state of entries already parsed (a full read): the same fold as the line scan,
 * for a command that holds the entries anyway and would otherwise scan the bytes twice.
 *
 * @example
 * ```ts
 * listingOfEntries([{ type: "message", message: { role: "user", content: "hi" } }]).messageCount; // 1
 * ```
 */
export function listingOfEntries(entries: readonly object[]): ListingState {
  const state = emptyListing();
  for (const entry of entries) addParsed(state, entry as Record<string, unknown>, undefined);
  return state;
}

/**
 * Folds one entry line (a line after the header) into `state`. With `texts`, every user and
 * assistant text is collected too (costs a full parse of those lines).
 */
export function addListingLine(state: ListingState, line: RawLine, texts?: string[]): void {
  const facts = scanMessage(line.bytes);
  if (!facts || facts.type === "session_info") {
    const value = parseObject(line);
    if (value) addParsed(state, value, texts);
    return;
  }
  if (facts.type !== "message") return;
  state.messageCount++;
  const m = facts.message;
  if (!m || !m.hasContent || (m.role !== "user" && m.role !== "assistant")) return;
  const activity = typeof m.timestamp === "number" ? m.timestamp : new Date(facts.timestamp ?? "").getTime();
  if (!Number.isNaN(activity)) state.lastActivity = Math.max(state.lastActivity ?? 0, activity);
  if (texts || (!state.firstMessage && m.role === "user")) {
    const value = parseObject(line);
    if (value && isObject(value.message)) addText(state, value.message, texts);
  }
}

/** The `SessionInfo` for a header and listing state. `mtimeMs` is the last fallback for `modified`. */
export function listingInfo(
  path: string,
  header: Record<string, unknown>,
  state: ListingState,
  mtimeMs: number,
  texts: string[] = [],
): SessionInfo {
  const headerTime = typeof header.timestamp === "string" ? new Date(header.timestamp).getTime() : NaN;
  const last = state.lastActivity;
  const modified = typeof last === "number" && last > 0
    ? new Date(last)
    : !Number.isNaN(headerTime) ? new Date(headerTime) : new Date(mtimeMs);
  return {
    path,
    id: header.id as string,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    name: state.name,
    parentSessionPath: header.parentSession as string | undefined,
    created: new Date(headerTime),
    modified,
    messageCount: state.messageCount,
    firstMessage: state.firstMessage || "(no messages)",
    allMessagesText: texts.join(" "),
  };
}

/**
 * Push parser for `SessionInfo`. `withText` also collects `allMessagesText` (costs a full
 * parse of every user and assistant line).
 *
 * @example
 * ```ts
 * const reader = new SessionInfoReader("/s.jsonl");
 * reader.push(new TextEncoder().encode('{"type":"session","id":"s","timestamp":"2024-01-01T00:00:00Z","cwd":"/"}\n'));
 * reader.end(0)?.firstMessage; // "(no messages)"
 * ```
 */
export class SessionInfoReader {
  readonly path: string;
  #texts: string[] | undefined;
  #splitter = new LineSplitter((line) => this.#onLine(line));
  #header: Record<string, unknown> | null = null;
  #rejected = false;
  #state = emptyListing();

  constructor(path: string, options: { withText?: boolean } = {}) {
    this.path = path;
    this.#texts = options.withText ? [] : undefined;
  }

  /** False once the file is known not to be a session: callers can stop reading. */
  get wanted(): boolean {
    return !this.#rejected;
  }

  push(chunk: Uint8Array): void {
    if (!this.#rejected) this.#splitter.push(chunk);
  }

  /** The info, or null when the file is not a session. `mtimeMs` is the last fallback for `modified`. */
  end(mtimeMs: number): SessionInfo | null {
    this.#splitter.end();
    const header = this.#header;
    if (this.#rejected || !header) return null;
    return listingInfo(this.path, header, this.#state, mtimeMs, this.#texts);
  }

  #onLine(line: RawLine): void {
    if (this.#rejected) return;
    if (this.#header) return addListingLine(this.#state, line, this.#texts);
    const found = listingHeaderLine(line);
    if (found === null) this.#rejected = true;
    else if (found) this.#header = found;
  }
}
