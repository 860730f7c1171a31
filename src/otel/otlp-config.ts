/**
 * Where and how `otel` sends: the command's flags over the standard OTLP exporter environment
 * (`OTEL_EXPORTER_OTLP_*`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`), flags winning. One
 * default differs from the spec's: bodies are gzipped unless compression is set to none.
 * Pure: the environment comes in as a lookup function.
 * @module
 */

/** The two OTLP/HTTP encodings. */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** How request bodies go: gzipped (our default, where the spec's is none) or as they are. */
export type OtlpCompression = "gzip" | "none";

export interface OtlpConfig {
  /** The full traces URL (`…/v1/traces`). */
  endpoint: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  /** Per request, in milliseconds. */
  timeoutMs: number;
  compression: OtlpCompression;
  /** Resource attributes, `service.name` included. */
  resource: Record<string, string>;
}

/** What the command line gave (undefined where a flag is absent). */
export interface OtlpFlags {
  endpoint?: string;
  protocol?: string;
  headers?: string;
  timeout?: string;
  compression?: string;
}

/** A setting that cannot be used; `setting` names the flag or variable it came from. */
export class OtlpConfigError extends Error {
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(message);
    this.setting = setting;
    this.name = "OtlpConfigError";
  }
}

export const DEFAULT_ENDPOINT = "http://localhost:4318";
export const DEFAULT_TIMEOUT_MS = 10_000;
const TRACES_PATH = "/v1/traces";

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `k1=v1,k2=v2` as the OTel spec writes headers and resource attributes: values percent-decoded,
 * keys and values trimmed, a pair without `=` refused.
 *
 * @example
 * ```ts
 * parseKeyValues("Authorization=Basic%20abc, x=1", "--headers"); // { Authorization: "Basic abc", x: "1" }
 * ```
 */
export function parseKeyValues(text: string, setting: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    const key = eq < 0 ? "" : decode(part.slice(0, eq).trim());
    if (key === "") throw new OtlpConfigError(setting, `${setting}: "${part.trim()}" is not KEY=VALUE`);
    out[key] = decode(part.slice(eq + 1).trim());
  }
  return out;
}

function checkUrl(url: string, setting: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OtlpConfigError(setting, `${setting}: "${url}" is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new OtlpConfigError(setting, `${setting}: "${url}" is not an http or https URL (OTLP/gRPC is not supported)`);
  }
  return url;
}

/** A base endpoint with `/v1/traces` added (the spec's rule for the signal-less variable). */
function tracesUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return trimmed.endsWith(TRACES_PATH) ? trimmed : trimmed + TRACES_PATH;
}

/**
 * The configuration from flags and environment. `--endpoint` may be a base URL or the full traces
 * URL; `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is taken as is, `OTEL_EXPORTER_OTLP_ENDPOINT` gets
 * `/v1/traces`. Signal-specific variables win over the general ones.
 */
export function resolveOtlpConfig(flags: OtlpFlags, env: (name: string) => string | undefined): OtlpConfig {
  const get = (name: string) => {
    const value = env(name)?.trim();
    return value ? value : undefined;
  };
  let endpoint: string;
  if (flags.endpoint !== undefined) endpoint = tracesUrl(checkUrl(flags.endpoint, "--endpoint"));
  else if (get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) endpoint = checkUrl(get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")!, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  else if (get("OTEL_EXPORTER_OTLP_ENDPOINT")) endpoint = tracesUrl(checkUrl(get("OTEL_EXPORTER_OTLP_ENDPOINT")!, "OTEL_EXPORTER_OTLP_ENDPOINT"));
  else endpoint = tracesUrl(DEFAULT_ENDPOINT);

  const [protocolSetting, protocolText] = flags.protocol !== undefined
    ? ["--protocol", flags.protocol]
    : get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ? ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")!]
    : ["OTEL_EXPORTER_OTLP_PROTOCOL", get("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf"];
  if (protocolText !== "http/protobuf" && protocolText !== "http/json") {
    throw new OtlpConfigError(protocolSetting, `${protocolSetting}: "${protocolText}" is not supported (use http/protobuf or http/json; grpc is not)`);
  }

  const headers = {
    ...parseKeyValues(get("OTEL_EXPORTER_OTLP_HEADERS") ?? "", "OTEL_EXPORTER_OTLP_HEADERS"),
    ...parseKeyValues(get("OTEL_EXPORTER_OTLP_TRACES_HEADERS") ?? "", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
    ...parseKeyValues(flags.headers ?? "", "--headers"),
  };

  const [timeoutSetting, timeoutText] = flags.timeout !== undefined
    ? ["--timeout", flags.timeout]
    : get("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT")
    ? ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", get("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT")!]
    : ["OTEL_EXPORTER_OTLP_TIMEOUT", get("OTEL_EXPORTER_OTLP_TIMEOUT") ?? String(DEFAULT_TIMEOUT_MS)];
  const timeoutMs = Number(timeoutText);
  if (!/^\d+$/.test(timeoutText.trim()) || timeoutMs <= 0) {
    throw new OtlpConfigError(timeoutSetting, `${timeoutSetting}: "${timeoutText}" is not a positive number of milliseconds`);
  }

  const [compressionSetting, compressionText] = flags.compression !== undefined
    ? ["--compression", flags.compression]
    : get("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION")
    ? ["OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", get("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION")!]
    : ["OTEL_EXPORTER_OTLP_COMPRESSION", get("OTEL_EXPORTER_OTLP_COMPRESSION") ?? "gzip"];
  const compression = compressionText.trim().toLowerCase();
  if (compression !== "gzip" && compression !== "none") {
    throw new OtlpConfigError(compressionSetting, `${compressionSetting}: "${compressionText}" is not supported (use gzip or none)`);
  }

  const resource = parseKeyValues(get("OTEL_RESOURCE_ATTRIBUTES") ?? "", "OTEL_RESOURCE_ATTRIBUTES");
  resource["service.name"] = get("OTEL_SERVICE_NAME") ?? resource["service.name"] ?? "pi";
  return { endpoint, protocol: protocolText, headers, timeoutMs, compression, resource };
}
