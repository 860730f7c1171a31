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
  /** Per entry: true for one this session copied from the one it was forked or cloned from. */
  copied: readonly boolean[];
  /** False for an entry older than `--since`. */
  wanted?: (ms: number) => boolean;
  /** Masks secrets in what is sent of the files' text (content, error messages). */
  redactor: Redactor;
  /** Whether message content is sent (`gen_ai.input.messages`, `gen_ai.output.messages`). */
  content: boolean;
}

const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** An ISO timestamp (or epoch milliseconds) as milliseconds; NaN when neither. */
function msOf(value: unknown): number {
  if (typeof value === "number") return value;
  return typeof value === "string" ? Date.parse(value) : NaN;
}

/** Adds the token and cost attributes of a `usage` object: input counts cached input too, as the spec says. */
function addUsage(attributes: Record<string, AttributeValue>, usage: Partial<Usage> | undefined): void {
  if (!usage || typeof usage !== "object") return;
  const cost = (usage.cost && typeof usage.cost === "object" ? usage.cost : {}) as Partial<Usage["cost"]>;
  const [input, cacheRead, cacheWrite] = [num(usage.input), num(usage.cacheRead), num(usage.cacheWrite)];
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
 * them, then given the entries' spans in order, each complete, and last the root (if any).
 */
export interface SpanSink {
  start(rootFirst: boolean): void;
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
  emitSessionSpans(input, { start() {}, add: (span) => spans.push(span), end: (root) => root && spans.unshift(root) });
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
  const { header, entries } = input;
  const sessionId = String(header.id);
  const traceId = traceIdOf(sessionId);
  const rootId = rootSpanIdOf(sessionId);
  /** Each entry by id, with its index. */
  const byId = new Map<string, number>();
  /** Each entry's time (NaN when it has none). */
  const times = new Float64Array(entries.length);
  /** Tool call id -> index of the assistant entry that made the call. */
  const callers = new Map<string, number>();
  let name: string | undefined;
  let messages = 0;
  const created = msOf(header.timestamp);
  /** The time of the latest entry (or the header's). */
  let last = Number.isFinite(created) ? created : NaN;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const ms = times[i] = msOf(entry.timestamp);
    if (Number.isFinite(ms) && !(ms <= last)) last = ms;
    if (typeof entry.id === "string") byId.set(entry.id, i);
    if (entry.type === "session_info") name = typeof (entry as { name?: unknown }).name === "string" ? (entry as { name: string }).name : undefined;
    if (entry.type !== "message") continue;
    messages++;
    const message = (entry as { message: AssistantMessage }).message;
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const block of message.content) if (block?.type === "toolCall" && typeof block.id === "string") callers.set(block.id, i);
  }
  // With spans to send, the root goes whenever it has a time (see the end).
  sink.start(input.from === 0 && Number.isFinite(last));

  let count = 0;
  let earliest = Infinity;
  /**
   * The span of `entry` under `parentSpanId`, complete: `attributes` (a fresh object) gets the
   * entry's id and type, then those of `after` (an error, content).
   */
  const child = (entry: SessionEntry, part: string, name: string, kind: number, startMs: number, endMs: number, attributes: Record<string, AttributeValue>, parentSpanId = rootId, errorMessage?: string, after?: Record<string, AttributeValue>): string => {
    const entryId = String(entry.id);
    attributes["pi.entry.id"] = entryId;
    attributes["pi.entry.type"] = entry.type;
    if (after) Object.assign(attributes, after);
    const span: SpanRecord = {
      traceId,
      spanId: entrySpanIdOf(sessionId, entryId, part),
      parentSpanId,
      name,
      kind,
      startMs: Number.isFinite(startMs) && startMs <= endMs ? startMs : endMs,
      endMs,
      attributes,
      entryId,
    };
    if (errorMessage !== undefined) span.errorMessage = errorMessage;
    count++;
    if (span.startMs < earliest) earliest = span.startMs;
    sink.add(span);
    return span.spanId;
  };
  /** The last chat span of an assistant message, by entry index: the parent of the tool spans after it. */
  let chatAt = -1;
  let chatId = "";

  /** The chat attributes of a model call, its usage after them. */
  const chat = (provider: unknown, model: string, responseModel: string, usage: Partial<Usage> | undefined, finishReasons?: string[]): Record<string, AttributeValue> => {
    const attributes: Record<string, AttributeValue> = {
      [ATTR_GEN_AI_OPERATION_NAME]: "chat",
      [ATTR_GEN_AI_PROVIDER_NAME]: String(provider ?? "unknown"),
      [ATTR_GEN_AI_REQUEST_MODEL]: model,
      [ATTR_GEN_AI_RESPONSE_MODEL]: responseModel,
    };
    if (finishReasons) attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = finishReasons;
    addUsage(attributes, usage);
    return attributes;
  };

  for (let i = input.from; i < entries.length; i++) {
    const entry = entries[i];
    if (input.copied[i]) continue;
    const at = times[i];
    if (!Number.isFinite(at) || (input.wanted && !input.wanted(at))) continue;
    const type = entry.type;
    if (type !== "message" && type !== "usage" && type !== "compaction" && type !== "branch_summary") continue;
    const parentAt = typeof entry.parentId === "string" ? byId.get(entry.parentId) : undefined;
    const parent = parentAt === undefined ? undefined : entries[parentAt];
    const parentMs = parentAt === undefined ? NaN : times[parentAt];
    if (type === "message") {
      const message = (entry as { message: Record<string, unknown> }).message;
      if (message?.role === "assistant") {
        const m = message as unknown as AssistantMessage;
        const model = String(m.model ?? "unknown");
        const attributes = chat(m.provider, model, String(m.responseModel ?? model), m.usage, [finishReason(m.stopReason)]);
        if (typeof m.api === "string") attributes["pi.api"] = m.api;
        let errorMessage: string | undefined;
        let after: Record<string, AttributeValue> | undefined;
        if (m.stopReason === "error") {
          after = { [ATTR_ERROR_TYPE]: "error" };
          errorMessage = typeof m.errorMessage === "string" ? input.redactor.text(m.errorMessage).slice(0, 1000) : "error";
        }
        if (input.content) {
          after ??= {};
          after[ATTR_GEN_AI_INPUT_MESSAGES] = contentJson(input.redactor, inputMessage(parent));
          after[ATTR_GEN_AI_OUTPUT_MESSAGES] = contentJson(input.redactor, [
            { role: "assistant", parts: parts(m.content), finish_reason: finishReason(m.stopReason) },
          ]);
        }
        chatId = child(entry, "", `chat ${model}`, SPAN_KIND.CLIENT, parentMs, at, attributes, rootId, errorMessage, after);
        chatAt = i;
      } else if (message?.role === "toolResult") {
        const m = message as unknown as ToolResultMessage;
        const callerAt = typeof m.toolCallId === "string" ? callers.get(m.toolCallId) : undefined;
        const caller = callerAt === undefined ? undefined : entries[callerAt];
        const toolName = String(m.toolName ?? "unknown");
        const attributes: Record<string, AttributeValue> = {
          [ATTR_GEN_AI_OPERATION_NAME]: "execute_tool",
          [ATTR_GEN_AI_TOOL_NAME]: toolName,
          [ATTR_GEN_AI_TOOL_CALL_ID]: String(m.toolCallId ?? ""),
        };
        addUsage(attributes, m.usage);
        const parentSpanId = caller && !input.copied[callerAt!] ? callerAt === chatAt ? chatId : entrySpanIdOf(sessionId, String(caller.id)) : rootId;
        const failed = m.isError === true;
        child(entry, "tool", `execute_tool ${toolName}`, SPAN_KIND.INTERNAL, callerAt === undefined ? NaN : times[callerAt], at, attributes, parentSpanId, failed ? "tool_error" : undefined, failed ? { [ATTR_ERROR_TYPE]: "tool_error" } : undefined);
      }
    } else if (type === "usage") {
      const e = entry as unknown as { provider?: unknown; model?: unknown; kind?: unknown; usage?: Usage };
      const model = String(e.model ?? "unknown");
      const attributes = chat(e.provider, model, model, e.usage);
      if (typeof e.kind === "string") attributes["pi.usage.kind"] = e.kind;
      child(entry, "", `chat ${model}`, SPAN_KIND.CLIENT, at, at, attributes);
    } else {
      const e = entry as unknown as { usage?: Usage; tokensBefore?: unknown; fromHook?: unknown };
      const attributes: Record<string, AttributeValue> = {};
      addUsage(attributes, e.usage);
      if (typeof e.tokensBefore === "number") attributes["pi.compaction.tokens_before"] = e.tokensBefore;
      child(entry, "", type === "compaction" ? "pi.compaction" : "pi.branch_summary", SPAN_KIND.INTERNAL, parentMs, at, attributes);
    }
  }

  let root: SpanRecord | undefined;
  if (input.from === 0 && Number.isFinite(last) && (count > 0 || !input.wanted || input.wanted(last))) {
    const start = Number.isFinite(created) ? created : Math.min(last, earliest);
    const attributes: Record<string, AttributeValue> = {
      [ATTR_GEN_AI_OPERATION_NAME]: "invoke_agent",
      [ATTR_GEN_AI_AGENT_NAME]: "pi",
      [ATTR_GEN_AI_CONVERSATION_ID]: sessionId,
      [ATTR_SESSION_ID]: sessionId,
      "pi.session.cwd": String(header.cwd ?? ""),
      "pi.session.version": typeof header.version === "number" ? header.version : 1,
      "pi.entry_count": entries.length,
      "pi.message_count": messages,
    };
    if (name) attributes["pi.session.name"] = name;
    if (typeof header.parentSession === "string") attributes["pi.session.parent"] = header.parentSession;
    root = { traceId, spanId: rootId, name: "invoke_agent pi", kind: SPAN_KIND.INTERNAL, startMs: Math.min(start, last), endMs: last, attributes };
  }
  sink.end(root);
}
