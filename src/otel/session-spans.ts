/**
 * One session as OpenTelemetry GenAI spans (semantic conventions 1.45, incubating): a root
 * `invoke_agent pi` span, a `chat <model>` span per assistant message and per `usage` entry, an
 * `execute_tool <name>` span per tool result, and spans for compactions and branch summaries.
 * Pure: entries in, span records out; which entries are new and which were copied from a parent
 * session is decided by the caller.
 * @module
 */
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_SESSION_ID,
} from "@opentelemetry/semantic-conventions/incubating";
import type { AssistantMessage, SessionEntry, SessionHeader, ToolResultMessage, Usage } from "../core/format/types.ts";
import type { Redactor } from "../core/redact/redactor.ts";
import { entrySpanIdOf, rootSpanIdOf, traceIdOf } from "./span-ids.ts";
import { callerOf, entryOf, idAt, indexEntries, type SpanIndex } from "./span-index.ts";

/** `SpanKind` of the OpenTelemetry API (the OTLP encoder adds one). */
export const SPAN_KIND = { INTERNAL: 0, CLIENT: 2 } as const;

export type AttributeValue = string | number | boolean | string[];

/** One span, in the terms the OTLP encoder needs. Times in milliseconds since the epoch. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  /** Set for a span whose operation failed: the status is then ERROR with this message. */
  errorMessage?: string;
  /** The session entry the span stands for (none for the root). */
  entryId?: string;
}

export interface SessionSpansInput {
  header: SessionHeader;
  /** Every complete entry of the file, in file order. */
  entries: readonly SessionEntry[];
  /** Index of the first entry not sent yet: earlier ones give no span (the root is sent with index 0). */
  from: number;
  /** Per entry: true (or 1) for one this session copied from the one it was forked or cloned from. */
  copied: ArrayLike<boolean | number>;
  /** False for an entry older than `--since`. */
  wanted?: (ms: number) => boolean;
  /** Masks secrets in what is sent of the files' text (content, error messages). */
  redactor: Redactor;
  /** Whether message content is sent (`gen_ai.input.messages`, `gen_ai.output.messages`). */
  content: boolean;
}

const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Adds the token and cost attributes of a `usage` object: input counts cached input too, as the spec says. */
function addUsage(attributes: Record<string, AttributeValue>, usage: Partial<Usage> | undefined): void {
  if (!usage || typeof usage !== "object") return;
  const cost = (usage.cost && typeof usage.cost === "object" ? usage.cost : {}) as Partial<Usage["cost"]>;
  const input = num(usage.input);
  const cacheRead = num(usage.cacheRead);
  const cacheWrite = num(usage.cacheWrite);
  attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = input + cacheRead + cacheWrite;
  attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = num(usage.output);
  attributes[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = cacheRead;
  attributes[ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS] = cacheWrite;
  attributes["pi.cost.input"] = num(cost.input);
  attributes["pi.cost.output"] = num(cost.output);
  attributes["pi.cost.cache_read"] = num(cost.cacheRead);
  attributes["pi.cost.cache_write"] = num(cost.cacheWrite);
  attributes["pi.cost.total"] = num(cost.total);
}

/** Span names by operation, then by model or tool: made once each (a session repeats a few). */
const names = { chat: new Map<string, string>(), execute_tool: new Map<string, string>() };

/** `${operation} ${what}` as a span name, the same string each time. */
function spanName(operation: "chat" | "execute_tool", what: string): string {
  const made = names[operation];
  let name = made.get(what);
  if (name === undefined) {
    name = `${operation} ${what}`;
    // Bounded: a run's models and tools are few; an odd file naming thousands starts it over.
    if (made.size >= 4096) made.clear();
    made.set(what, name);
  }
  return name;
}

/** pi's stop reasons in the spec's finish-reason words. */
function finishReason(stopReason: unknown): string {
  if (stopReason === "toolUse") return "tool_call";
  return typeof stopReason === "string" ? stopReason : "unknown";
}

/** Message content as the spec's `gen_ai.*.messages` parts (images left out), JSON, masked. */
function contentJson(redactor: Redactor, messages: unknown[]): string {
  return JSON.stringify(redactor.value(messages));
}

function parts(content: unknown): unknown[] {
  if (typeof content === "string") return [{ type: "text", content }];
  if (!Array.isArray(content)) return [];
  const out: unknown[] = [];
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as Record<string, unknown>;
    if (b.type === "text") out.push({ type: "text", content: b.text });
    else if (b.type === "thinking") out.push({ type: "reasoning", content: b.thinking });
    else if (b.type === "toolCall") out.push({ type: "tool_call", id: b.id, name: b.name, arguments: b.arguments });
  }
  return out;
}

/** The input message of a chat span: what its parent entry said (a prompt or a tool result). */
function inputMessage(parent: SessionEntry | undefined): unknown[] {
  if (!parent || parent.type !== "message") return [];
  const message = (parent as { message?: Record<string, unknown> }).message;
  if (!message || typeof message !== "object") return [];
  if (message.role === "toolResult") {
    return [{ role: "tool", parts: [{ type: "tool_call_response", id: message.toolCallId, response: parts(message.content) }] }];
  }
  if (message.role === "user") return [{ role: "user", parts: parts(message.content) }];
  return [];
}

/**
 * Where `emitSessionSpans` puts a session's spans: told first whether the root span will lead
 * them (and the root itself when it is known before the others, as it is unless `--since` or a
 * header without a time leaves it to them), then given the entries' spans in order, each
 * complete, and last the root (if any; the one `start` had, when it had one).
 */
export interface SpanSink {
  start(rootFirst: boolean, root?: SpanRecord): void;
  add(span: SpanRecord): void;
  end(root: SpanRecord | undefined): void;
}

/**
 * The spans of one session's entries from `input.from` on (and the root span when `from` is 0),
 * the root first.
 *
 * @example
 * ```ts
 * const spans = sessionSpans({ header, entries, from: 0, copied: [], redactor, content: false });
 * spans[0].name; // "invoke_agent pi"
 * ```
 */
export function sessionSpans(input: SessionSpansInput): SpanRecord[] {
  const spans: SpanRecord[] = [];
  emitSessionSpans(input, {
    start: (_, root) => root && spans.push(root),
    add: (span) => spans.push(span),
    end: (root) => root && spans[0] !== root && spans.unshift(root),
  });
  return spans;
}

/**
 * `sessionSpans` span by span, so that a long session's spans need not all be held at once.
 * A chat span runs from its parent entry's timestamp (the prompt or tool result it answers) to
 * its own entry's (written when the response was complete); a tool span from the assistant
 * message that called the tool to the tool result's entry. The root span runs from the header's
 * time to the last entry's, and leads the others.
 */
export function emitSessionSpans(input: SessionSpansInput, sink: SpanSink): void {
  const { entries } = input;
  const mapper = new SpanMapper(input, indexEntries(input.header, entries), sink, (i) => entries[i]);
  for (let i = input.from; i < entries.length; i++) mapper.entry(i, entries[i]);
  mapper.end();
}

/** What `SpanMapper` maps with: `SessionSpansInput` but the entries, which come one by one. */
export type SpanMapInput = Omit<SessionSpansInput, "entries">;

/**
 * `emitSessionSpans` for entries that come one at a time (a long session read a second time),
 * with the index of them all made before (span-index.ts): given each entry from `input.from` on,
 * in order, with its index; `end` after the last. The content of a chat span's input message
 * needs its parent entry: `entryAt` gives it (without, as when content is not sent, none).
 *
 * @example
 * ```ts
 * const mapper = new SpanMapper(input, index, sink);
 * for (const [i, entry] of newEntries) mapper.entry(i, entry);
 * mapper.end();
 * ```
 */
export class SpanMapper {
  readonly #input: SpanMapInput;
  readonly #index: SpanIndex;
  readonly #sink: SpanSink;
  readonly #entryAt: ((i: number) => SessionEntry | undefined) | undefined;
  readonly #sessionId: string;
  readonly #traceId: string;
  readonly #rootId: string;
  /** The root when known before the other spans (see `SpanSink`). */
  readonly #root: SpanRecord | undefined;
  #count = 0;
  #earliest = Infinity;
  /** The last chat span of an assistant message, by entry index: the parent of the tool spans after it. */
  #chatAt = -1;
  #chatId = "";

  constructor(input: SpanMapInput, index: SpanIndex, sink: SpanSink, entryAt?: (i: number) => SessionEntry | undefined) {
    this.#input = input;
    this.#index = index;
    this.#sink = sink;
    this.#entryAt = entryAt;
    this.#sessionId = String(input.header.id);
    this.#traceId = traceIdOf(this.#sessionId);
    this.#rootId = rootSpanIdOf(this.#sessionId);
    // With spans to send, the root goes whenever it has a time (see `end`); known now unless
    // only the other spans can tell whether it goes (--since) or when it starts (no header time).
    const rootFirst = input.from === 0 && Number.isFinite(index.last);
    if (rootFirst && Number.isFinite(index.created) && (!input.wanted || input.wanted(index.last))) this.#root = this.#rootSpan(index.created);
    sink.start(rootFirst, this.#root);
  }

  /**
   * The span of `entry` under `parentSpanId`, complete: `attributes` (a fresh object) gets the
   * entry's id and type, then those of `after` (an error, content).
   */
  #child(entry: SessionEntry, part: string, name: string, kind: number, startMs: number, endMs: number, attributes: Record<string, AttributeValue>, parentSpanId = this.#rootId, errorMessage?: string, after?: Record<string, AttributeValue>): string {
    const entryId = String(entry.id);
    attributes["pi.entry.id"] = entryId;
    attributes["pi.entry.type"] = entry.type;
    if (after) Object.assign(attributes, after);
    const span: SpanRecord = {
      traceId: this.#traceId,
      spanId: entrySpanIdOf(this.#sessionId, entryId, part),
      parentSpanId,
      name,
      kind,
      startMs: Number.isFinite(startMs) && startMs <= endMs ? startMs : endMs,
      endMs,
      attributes,
      entryId,
    };
    if (errorMessage !== undefined) span.errorMessage = errorMessage;
    this.#count++;
    if (span.startMs < this.#earliest) this.#earliest = span.startMs;
    this.#sink.add(span);
    return span.spanId;
  }

  /** The chat attributes of a model call, its usage after them. */
  #chat(provider: unknown, model: string, responseModel: string, usage: Partial<Usage> | undefined, finishReasons?: string[]): Record<string, AttributeValue> {
    const attributes: Record<string, AttributeValue> = {
      [ATTR_GEN_AI_OPERATION_NAME]: "chat",
      [ATTR_GEN_AI_PROVIDER_NAME]: String(provider ?? "unknown"),
      [ATTR_GEN_AI_REQUEST_MODEL]: model,
      [ATTR_GEN_AI_RESPONSE_MODEL]: responseModel,
    };
    if (finishReasons) attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = finishReasons;
    addUsage(attributes, usage);
    return attributes;
  }

  /** The spans of entry `i` (none for one copied, unwanted or without a time). */
  entry(i: number, entry: SessionEntry): void {
    const input = this.#input;
    const { times } = this.#index;
    const rootId = this.#rootId;
    if (input.copied[i]) return;
    const at = times[i];
    if (!Number.isFinite(at) || (input.wanted && !input.wanted(at))) return;
    const type = entry.type;
    if (type !== "message" && type !== "usage" && type !== "compaction" && type !== "branch_summary") return;
    const parentAt = typeof entry.parentId === "string" ? entryOf(this.#index, entry.parentId) : undefined;
    const parentMs = parentAt === undefined ? NaN : times[parentAt];
    if (type === "message") {
      const message = (entry as { message: Record<string, unknown> }).message;
      if (message?.role === "assistant") {
        const m = message as unknown as AssistantMessage;
        const model = String(m.model ?? "unknown");
        const attributes = this.#chat(m.provider, model, String(m.responseModel ?? model), m.usage, [finishReason(m.stopReason)]);
        if (typeof m.api === "string") attributes["pi.api"] = m.api;
        let errorMessage: string | undefined;
        let after: Record<string, AttributeValue> | undefined;
        if (m.stopReason === "error") {
          after = { [ATTR_ERROR_TYPE]: "error" };
          errorMessage = typeof m.errorMessage === "string" ? input.redactor.text(m.errorMessage).slice(0, 1000) : "error";
        }
        if (input.content) {
          const parent = parentAt === undefined ? undefined : this.#entryAt?.(parentAt);
          after ??= {};
          after[ATTR_GEN_AI_INPUT_MESSAGES] = contentJson(input.redactor, inputMessage(parent));
          after[ATTR_GEN_AI_OUTPUT_MESSAGES] = contentJson(input.redactor, [
            { role: "assistant", parts: parts(m.content), finish_reason: finishReason(m.stopReason) },
          ]);
        }
        this.#chatId = this.#child(entry, "", spanName("chat", model), SPAN_KIND.CLIENT, parentMs, at, attributes, rootId, errorMessage, after);
        this.#chatAt = i;
      } else if (message?.role === "toolResult") {
        const m = message as unknown as ToolResultMessage;
        const callerAt = typeof m.toolCallId === "string" ? callerOf(this.#index, m.toolCallId) : undefined;
        const toolName = String(m.toolName ?? "unknown");
        const attributes: Record<string, AttributeValue> = {
          [ATTR_GEN_AI_OPERATION_NAME]: "execute_tool",
          [ATTR_GEN_AI_TOOL_NAME]: toolName,
          [ATTR_GEN_AI_TOOL_CALL_ID]: String(m.toolCallId ?? ""),
        };
        addUsage(attributes, m.usage);
        const parentSpanId = callerAt === undefined || input.copied[callerAt] ? rootId : callerAt === this.#chatAt ? this.#chatId : entrySpanIdOf(this.#sessionId, String(idAt(this.#index, callerAt)));
        const failed = m.isError === true;
        this.#child(entry, "tool", spanName("execute_tool", toolName), SPAN_KIND.INTERNAL, callerAt === undefined ? NaN : times[callerAt], at, attributes, parentSpanId, failed ? "tool_error" : undefined, failed ? { [ATTR_ERROR_TYPE]: "tool_error" } : undefined);
      }
    } else if (type === "usage") {
      const e = entry as unknown as { provider?: unknown; model?: unknown; kind?: unknown; usage?: Usage };
      const model = String(e.model ?? "unknown");
      const attributes = this.#chat(e.provider, model, model, e.usage);
      if (typeof e.kind === "string") attributes["pi.usage.kind"] = e.kind;
      this.#child(entry, "", spanName("chat", model), SPAN_KIND.CLIENT, at, at, attributes);
    } else {
      const e = entry as unknown as { usage?: Usage; tokensBefore?: unknown; fromHook?: unknown };
      const attributes: Record<string, AttributeValue> = {};
      addUsage(attributes, e.usage);
      if (typeof e.tokensBefore === "number") attributes["pi.compaction.tokens_before"] = e.tokensBefore;
      this.#child(entry, "", type === "compaction" ? "pi.compaction" : "pi.branch_summary", SPAN_KIND.INTERNAL, parentMs, at, attributes);
    }
  }

  /** After the last entry: the root, to the sink. */
  end(): void {
    const input = this.#input;
    const index = this.#index;
    let root = this.#root;
    if (!root && input.from === 0 && Number.isFinite(index.last) && (this.#count > 0 || !input.wanted || input.wanted(index.last))) {
      root = this.#rootSpan(Number.isFinite(index.created) ? index.created : Math.min(index.last, this.#earliest));
    }
    this.#sink.end(root);
  }

  /** The root span, starting at `start` (at the latest at the last entry's time). */
  #rootSpan(start: number): SpanRecord {
    const { header } = this.#input;
    const index = this.#index;
    const sessionId = this.#sessionId;
    const attributes: Record<string, AttributeValue> = {
      [ATTR_GEN_AI_OPERATION_NAME]: "invoke_agent",
      [ATTR_GEN_AI_AGENT_NAME]: "pi",
      [ATTR_GEN_AI_CONVERSATION_ID]: sessionId,
      [ATTR_SESSION_ID]: sessionId,
      "pi.session.cwd": String(header.cwd ?? ""),
      "pi.session.version": typeof header.version === "number" ? header.version : 1,
      "pi.entry_count": index.entries,
      "pi.message_count": index.messages,
    };
    if (index.name) attributes["pi.session.name"] = index.name;
    if (typeof header.parentSession === "string") attributes["pi.session.parent"] = header.parentSession;
    return { traceId: this.#traceId, spanId: this.#rootId, name: "invoke_agent pi", kind: SPAN_KIND.INTERNAL, startMs: Math.min(start, index.last), endMs: index.last, attributes };
  }
}
