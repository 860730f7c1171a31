/**
 * Span records as an OTLP `ExportTraceServiceRequest`, encoded by OpenTelemetry's own
 * `@opentelemetry/otlp-transformer` (protobuf or JSON). The transformer takes SDK
 * `ReadableSpan`s; plain objects of that shape are handed to it (no tracer, no context).
 * @module
 */
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import type { OtlpProtocol } from "./otlp-config.ts";
import type { SpanRecord } from "./session-spans.ts";
import { VERSION } from "../version.ts";

/** The instrumentation scope of every span: this tool. */
const SCOPE = { name: "pi-session", version: VERSION };

/** Sets `time` to the hrtime `[seconds, nanoseconds]` of `ms` milliseconds. */
function setHrTime(time: [number, number], ms: number): void {
  const seconds = Math.floor(ms / 1000);
  time[0] = seconds;
  time[1] = Math.round((ms - seconds * 1000) * 1e6);
}

const NONE: never[] = [];
const NO_ATTRIBUTES: SpanRecord["attributes"] = {};
const OK = { code: 0 };

/** A span context as the encoder reads it (no trace state, not remote). */
interface Context {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/**
 * A `ReadableSpan` of a record: only what the encoder reads is real (no duration, no tracer).
 * It is its own span context (`spanContext()` gives the span); what every span shares (no
 * events or links, the scope, the sampled flag) sits on the prototype. An encoder keeps its
 * spans and their times from call to call and sets them again (`set`): the serializer holds
 * none past its call, and 90,444 spans made new, three objects each, were garbage the run
 * faulted fresh pages in for.
 */
class PlainSpan implements Context {
  traceId = "";
  spanId = "";
  name = "";
  kind = 0;
  parentSpanContext: Context | undefined = undefined;
  readonly startTime: [number, number] = [0, 0];
  readonly endTime: [number, number] = [0, 0];
  status: { code: number; message?: string } = OK;
  attributes: SpanRecord["attributes"] = NO_ATTRIBUTES;
  resource: ReadableSpan["resource"];
  declare readonly traceFlags: number;
  declare readonly links: never[];
  declare readonly events: never[];
  declare readonly ended: boolean;
  declare readonly instrumentationScope: typeof SCOPE;
  declare readonly droppedAttributesCount: number;
  declare readonly droppedEventsCount: number;
  declare readonly droppedLinksCount: number;

  constructor(resource: ReadableSpan["resource"]) {
    this.resource = resource;
  }

  /** This span as `span` under `parent`. */
  set(span: SpanRecord, parent: Context | undefined): void {
    this.traceId = span.traceId;
    this.spanId = span.spanId;
    this.name = span.name;
    this.kind = span.kind;
    this.parentSpanContext = parent;
    setHrTime(this.startTime, span.startMs);
    setHrTime(this.endTime, span.endMs);
    this.status = span.errorMessage === undefined ? OK : { code: 2, message: span.errorMessage };
    this.attributes = span.attributes;
  }

  spanContext(): Context {
    return this;
  }
}
for (const [key, value] of Object.entries({ traceFlags: 1, links: NONE, events: NONE, ended: true, instrumentationScope: SCOPE, droppedAttributesCount: 0, droppedEventsCount: 0, droppedLinksCount: 0 })) {
  Object.defineProperty(PlainSpan.prototype, key, { value });
}

/**
 * The encoder's spans of some records, in `out` (its spans reused, more made when it has too
 * few; its length set to the records'). A parent's context is reused while it recurs among the
 * last two parents (most spans have the root; a tool's has the chat span before it).
 */
function plainSpans(spans: readonly SpanRecord[], out: PlainSpan[], made: PlainSpan[], resource: ReadableSpan["resource"]): PlainSpan[] {
  while (made.length < spans.length) made.push(new PlainSpan(resource));
  out.length = spans.length;
  let last: Context | undefined;
  let before: Context | undefined;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    const { traceId, parentSpanId } = span;
    let parent: Context | undefined;
    if (parentSpanId) {
      if (last?.spanId === parentSpanId && last.traceId === traceId) parent = last;
      else {
        parent = before?.spanId === parentSpanId && before.traceId === traceId ? before : { traceId, spanId: parentSpanId, traceFlags: 1 };
        before = last;
        last = parent;
      }
    }
    const plain = made[i];
    plain.set(span, parent);
    out[i] = plain;
  }
  return out;
}

/** The resource shape the encoder reads. */
function resourceOf(attributes: Record<string, string>): ReadableSpan["resource"] {
  return { attributes, asyncAttributesPending: false } as unknown as ReadableSpan["resource"];
}

/** An encoder for one resource: spans in, request bytes out. */
export function otlpEncoder(protocol: OtlpProtocol, resourceAttributes: Record<string, string>): (spans: readonly SpanRecord[]) => Uint8Array {
  const resource = resourceOf(resourceAttributes);
  const serializer = protocol === "http/json" ? JsonTraceSerializer : ProtobufTraceSerializer;
  // The spans of the last call, set again for the next (a call's records are at most a chunk's).
  const made: PlainSpan[] = [];
  const out: PlainSpan[] = [];
  return (spans) => {
    const bytes = serializer.serializeRequest(plainSpans(spans, out, made, resource) as unknown as ReadableSpan[]) ?? new Uint8Array(0);
    // The records' attributes are let go with them, not held till the next call.
    for (let i = 0; i < spans.length; i++) made[i].attributes = NO_ATTRIBUTES;
    return bytes;
  };
}

/**
 * Several encoded requests as one. A protobuf `ExportTraceServiceRequest` has a single field,
 * the repeated `resource_spans`, and a parser concatenates repeated fields: the requests' bytes
 * one after the other are the request holding all their resource spans (protobuf's documented
 * merging of concatenated messages, no encoding of ours). OTLP/JSON requests are parsed and
 * their `resourceSpans` put in one.
 *
 * The protobuf join writes into one buffer of its own, reused from call to call: a join's bytes
 * hold only until the next join (a run gzips each request before it joins the next). A new
 * buffer per request is fresh memory, its pages faulted in and given back each time: the bench's
 * 194 requests (45 MB) took 15-23 ms of the main thread's CPU to join so, 1-2 ms into one buffer
 * (the compiled binary, by hand, under load).
 */
export function joinRequests(protocol: OtlpProtocol): (bodies: Uint8Array[]) => Uint8Array {
  if (protocol === "http/json") {
    return (bodies) => {
      if (bodies.length === 1) return bodies[0];
      const decoder = new TextDecoder();
      const resourceSpans = bodies.flatMap((body) => (JSON.parse(decoder.decode(body)) as { resourceSpans?: unknown[] }).resourceSpans ?? []);
      return new TextEncoder().encode(JSON.stringify({ resourceSpans }));
    };
  }
  let buffer = new Uint8Array(0);
  return (bodies) => {
    if (bodies.length === 1) return bodies[0];
    const length = bodies.reduce((n, body) => n + body.length, 0);
    // Grown by half again beyond what is asked, so that requests a little larger do not each make one.
    if (buffer.length < length) buffer = new Uint8Array(Math.ceil(length * 1.5));
    let at = 0;
    for (const body of bodies) {
      buffer.set(body, at);
      at += body.length;
    }
    return buffer.subarray(0, length);
  };
}

/** What a receiver said about a request it accepted: spans it rejected, and why. */
export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/** The partial success in an `ExportTraceServiceResponse`, or undefined when all was taken. */
export function partialSuccessOf(protocol: OtlpProtocol, body: Uint8Array): PartialSuccess | undefined {
  if (body.length === 0) return undefined;
  try {
    const serializer = protocol === "http/json" ? JsonTraceSerializer : ProtobufTraceSerializer;
    const partial = serializer.deserializeResponse(body)?.partialSuccess;
    if (!partial) return undefined;
    const rejectedSpans = Number(partial.rejectedSpans ?? 0);
    const errorMessage = String(partial.errorMessage ?? "");
    return rejectedSpans > 0 || errorMessage !== "" ? { rejectedSpans, errorMessage } : undefined;
  } catch {
    return undefined;
  }
}
