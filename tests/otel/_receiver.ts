/**
 * A loopback OTLP/HTTP receiver for tests: takes `POST /v1/traces` (gzip or not, protobuf or
 * JSON), decodes each request with the OTLP message definitions below (transcribed from
 * opentelemetry-proto's trace.proto, common.proto, resource.proto and trace_service.proto, the
 * fields OTLP/HTTP traces use; decoded with protobufjs), and answers as the test scripts it.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import protobuf from "protobufjs";

const OTLP_PROTO = `
syntax = "proto3";
package opentelemetry.proto;
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16;
  string name = 5; SpanKind kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10; repeated Event events = 11;
  uint32 dropped_events_count = 12; repeated Link links = 13; uint32 dropped_links_count = 14; Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
message Status { string message = 2; StatusCode code = 3; }
enum SpanKind { SPAN_KIND_UNSPECIFIED = 0; SPAN_KIND_INTERNAL = 1; SPAN_KIND_SERVER = 2; SPAN_KIND_CLIENT = 3; SPAN_KIND_PRODUCER = 4; SPAN_KIND_CONSUMER = 5; }
enum StatusCode { STATUS_CODE_UNSET = 0; STATUS_CODE_OK = 1; STATUS_CODE_ERROR = 2; }
`;

const root = protobuf.parse(OTLP_PROTO, { keepCase: false }).root;
const RequestType = root.lookupType("opentelemetry.proto.ExportTraceServiceRequest");
const ResponseType = root.lookupType("opentelemetry.proto.ExportTraceServiceResponse");

// deno-lint-ignore no-explicit-any
type Any = any;
export type Value = string | number | boolean | Value[];

/** One span as received, the same whichever encoding carried it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP kind: 1 internal, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, Value>;
  status: { code: number; message: string };
  resource: Record<string, Value>;
  scope: string;
}

function anyValue(v: Any): Value {
  if (v == null) return "";
  if (v.stringValue !== undefined && v.stringValue !== null) return v.stringValue;
  if (v.boolValue !== undefined && v.boolValue !== null) return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) return Number(v.intValue);
  if (v.doubleValue !== undefined && v.doubleValue !== null) return Number(v.doubleValue);
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(anyValue);
  return "";
}

function attributes(list: Any[] | undefined): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const kv of list ?? []) out[kv.key] = anyValue(kv.value);
  return out;
}

const hex = (bytes: Uint8Array | string | undefined) => typeof bytes === "string" ? bytes : bytes ? Buffer.from(bytes).toString("hex") : "";

/** The spans of a decoded request (protobuf objects or parsed JSON alike). */
function spansOf(request: Any): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: s.name,
          kind: Number(s.kind ?? 0),
          startNs: BigInt(String(s.startTimeUnixNano)),
          endNs: BigInt(String(s.endTimeUnixNano)),
          attributes: attributes(s.attributes),
          status: { code: Number(s.status?.code ?? 0), message: s.status?.message ?? "" },
          resource,
          scope: ss.scope?.name ?? "",
        });
      }
    }
  }
  return out;
}

/** Decodes an OTLP/HTTP traces request body of either encoding into its spans. */
export function decodeRequest(body: Uint8Array, contentType: string): ReceivedSpan[] {
  if (contentType.includes("json")) return spansOf(JSON.parse(new TextDecoder().decode(body)));
  return spansOf(RequestType.toObject(RequestType.decode(body), { longs: String, bytes: Array as Any, defaults: false }) as Any);
}

/** A protobuf `ExportTraceServiceResponse` with a partial success. */
export function partialSuccessBody(rejectedSpans: number, errorMessage: string): Uint8Array {
  return ResponseType.encode(ResponseType.fromObject({ partialSuccess: { rejectedSpans, errorMessage } })).finish();
}

/** What the receiver does with request number `n` (from 0): answer, drop the connection, or never answer. */
export type Reply = { status: number; headers?: Record<string, string>; body?: Uint8Array | string } | "close" | "hang";

export interface ReceivedRequest {
  contentType: string;
  contentEncoding: string;
  headers: Record<string, string | string[] | undefined>;
  /** Spans of an accepted request (empty for one the script refused). */
  spans: ReceivedSpan[];
  reply: Reply;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Spans of every request answered 2xx. */
  accepted(): ReceivedSpan[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port); `script(n)` decides each reply (default 200). */
export async function startReceiver(script: (n: number) => Reply = () => ({ status: 200 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const n = requests.length;
      const reply = script(n);
      const raw = Buffer.concat(chunks);
      const contentEncoding = String(req.headers["content-encoding"] ?? "");
      const contentType = String(req.headers["content-type"] ?? "");
      const ok = typeof reply === "object" && reply.status >= 200 && reply.status < 300;
      const body = contentEncoding === "gzip" ? gunzipSync(raw) : raw;
      requests.push({ contentType, contentEncoding, headers: req.headers, spans: ok ? decodeRequest(new Uint8Array(body), contentType) : [], reply });
      if (reply === "close") return req.socket.destroy();
      if (reply === "hang") return void hanging.push(res);
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    accepted: () => requests.filter((r) => typeof r.reply === "object" && r.reply.status < 300).flatMap((r) => r.spans),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
