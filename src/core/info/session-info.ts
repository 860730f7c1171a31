/**
 * The summary pi shows for a session in lists and pickers (pi's `SessionInfo`), computed
 * in one streaming pass that parses only the lines it needs: the header, names, and the
 * user messages whose text it shows.
 * @module
 */
import { decodeLine, isObject } from "../read/decode-line.ts";
import { LineSplitter, type RawLine } from "../read/line-splitter.ts";
import { isNullValue, keyIs, numberValue, scanObject, stringValue } from "../read/scan-keys.ts";

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

/** What a message line tells without parsing its content. */
interface MessageFacts {
  role?: string;
  hasContent: boolean;
  timestamp?: number;
}

function scanMessage(b: Uint8Array): { type?: string; timestamp?: string; message?: MessageFacts } | null {
  const out: { type?: string; timestamp?: string; message?: MessageFacts } = {};
  const ok = scanObject(b, 0, (ks, ke, vs, ve) => {
    if (keyIs(b, ks, ke, "type")) out.type = stringValue(b, vs, ve);
    else if (keyIs(b, ks, ke, "timestamp")) out.timestamp = stringValue(b, vs, ve);
    else if (keyIs(b, ks, ke, "message") && b[vs] === 0x7b) {
      const facts: MessageFacts = { hasContent: false };
      if (!scanObject(b.subarray(0, ve), vs, (mks, mke, mvs, mve) => {
        if (keyIs(b, mks, mke, "role")) facts.role = stringValue(b, mvs, mve);
        else if (keyIs(b, mks, mke, "content")) facts.hasContent = true;
        else if (keyIs(b, mks, mke, "timestamp")) facts.timestamp = isNullValue(b, mvs, mve) ? undefined : numberValue(b, mvs, mve);
        return false;
      })) return true;
      out.message = facts;
    }
    return false;
  });
  return ok ? out : null;
}

function textOf(message: Record<string, unknown>): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((block) => block?.type === "text").map((block) => block.text).join(" ");
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
  #withText: boolean;
  #splitter = new LineSplitter((line) => this.#onLine(line));
  #header: Record<string, unknown> | null = null;
  #rejected = false;
  #name: string | undefined;
  #messageCount = 0;
  #firstMessage = "";
  #texts: string[] = [];
  #lastActivity: number | undefined;
  #scratch: never[] = [];

  constructor(path: string, options: { withText?: boolean } = {}) {
    this.path = path;
    this.#withText = options.withText ?? false;
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
    const headerTime = typeof header.timestamp === "string" ? new Date(header.timestamp).getTime() : NaN;
    const last = this.#lastActivity;
    const modified = typeof last === "number" && last > 0
      ? new Date(last)
      : !Number.isNaN(headerTime) ? new Date(headerTime) : new Date(mtimeMs);
    return {
      path: this.path,
      id: header.id as string,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      name: this.#name,
      parentSessionPath: header.parentSession as string | undefined,
      created: new Date(header.timestamp as string),
      modified,
      messageCount: this.#messageCount,
      firstMessage: this.#firstMessage || "(no messages)",
      allMessagesText: this.#texts.join(" "),
    };
  }

  #parse(line: RawLine): Record<string, unknown> | undefined {
    const decoded = decodeLine(line, { bom: false, crlf: false }, this.#scratch);
    this.#scratch.length = 0;
    return decoded.kind === "value" && isObject(decoded.value) ? decoded.value : undefined;
  }

  #onLine(line: RawLine): void {
    if (this.#rejected) return;
    if (!this.#header) {
      const value = this.#parse(line);
      if (value === undefined) return;
      if (value.type === "session") this.#header = value;
      else this.#rejected = true;
      return;
    }
    const facts = scanMessage(line.bytes);
    if (!facts) {
      const value = this.#parse(line);
      if (value) this.#addParsed(line, value);
      return;
    }
    if (facts.type === "session_info") {
      const value = this.#parse(line);
      if (value) this.#addParsed(line, value);
      return;
    }
    if (facts.type !== "message") return;
    this.#messageCount++;
    const m = facts.message;
    if (!m || !m.hasContent || (m.role !== "user" && m.role !== "assistant")) return;
    const activity = typeof m.timestamp === "number" ? m.timestamp : new Date(facts.timestamp ?? "").getTime();
    if (!Number.isNaN(activity)) this.#lastActivity = Math.max(this.#lastActivity ?? 0, activity);
    if (this.#withText || (!this.#firstMessage && m.role === "user")) {
      const value = this.#parse(line);
      if (value && isObject(value.message)) this.#addText(value.message);
    }
  }

  /** A line the scan could not handle, or a session_info: use the parsed object. */
  #addParsed(_line: RawLine, value: Record<string, unknown>): void {
    if (value.type === "session_info") {
      this.#name = typeof value.name === "string" ? value.name.trim() || undefined : undefined;
      return;
    }
    if (value.type !== "message" || !isObject(value.message)) return;
    this.#messageCount++;
    const message = value.message;
    if (typeof message.role !== "string" || !("content" in message)) return;
    if (message.role !== "user" && message.role !== "assistant") return;
    const activity = typeof message.timestamp === "number" ? message.timestamp : new Date(value.timestamp as string).getTime();
    if (!Number.isNaN(activity)) this.#lastActivity = Math.max(this.#lastActivity ?? 0, activity);
    this.#addText(message);
  }

  #addText(message: Record<string, unknown>): void {
    const text = textOf(message);
    if (!text) return;
    if (this.#withText) this.#texts.push(text);
    if (!this.#firstMessage && message.role === "user") this.#firstMessage = text;
  }
}
