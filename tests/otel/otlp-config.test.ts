/** resolveOtlpConfig: flags over the standard OTLP exporter environment, and bad settings refused. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { OtlpConfigError, parseKeyValues, resolveOtlpConfig } from "../../src/otel/otlp-config.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

test("resolveOtlpConfig() defaults to http/protobuf on localhost:4318, service pi", () => {
  assert.deepEqual(resolveOtlpConfig({}, envOf({})), {
    endpoint: "http://localhost:4318/v1/traces",
    protocol: "http/protobuf",
    headers: {},
    timeoutMs: 10_000,
    compression: "gzip",
    resource: { "service.name": "pi" },
  });
});

test("resolveOtlpConfig() appends /v1/traces to the general endpoint only, and flags win", () => {
  assert.equal(resolveOtlpConfig({}, envOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://o.example/otlp/" })).endpoint, "https://o.example/otlp/v1/traces");
  const env = envOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://a", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://b/custom" });
  assert.equal(resolveOtlpConfig({}, env).endpoint, "https://b/custom");
  assert.equal(resolveOtlpConfig({ endpoint: "http://c:4318" }, env).endpoint, "http://c:4318/v1/traces");
  assert.equal(resolveOtlpConfig({ endpoint: "http://c:4318/v1/traces" }, env).endpoint, "http://c:4318/v1/traces");
});

test("resolveOtlpConfig() merges headers (flags last), decodes values, reads protocol, timeout and resource", () => {
  const config = resolveOtlpConfig(
    { headers: "b=flag", protocol: "http/json" },
    envOf({
      OTEL_EXPORTER_OTLP_HEADERS: "a=1,b=2",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "Authorization=Basic%20eHk6eg==",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TIMEOUT: "2500",
      OTEL_SERVICE_NAME: "agents",
      OTEL_RESOURCE_ATTRIBUTES: "service.name=ignored,team=ml%20ops",
    }),
  );
  assert.deepEqual(config.headers, { a: "1", b: "flag", Authorization: "Basic eHk6eg==" });
  assert.equal(config.protocol, "http/json");
  assert.equal(config.timeoutMs, 2500);
  assert.deepEqual(config.resource, { "service.name": "agents", team: "ml ops" });
});

test("resolveOtlpConfig() refuses grpc, a non-URL, a bad timeout and a header without =, naming the setting", () => {
  const refused = (flags: Record<string, string>, vars: Record<string, string>, setting: string) =>
    assert.throws(() => resolveOtlpConfig(flags, envOf(vars)), (e) => e instanceof OtlpConfigError && e.setting === setting && e.message.startsWith(`${setting}: `));
  refused({}, { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL");
  refused({ endpoint: "collector:4318" }, {}, "--endpoint");
  refused({ endpoint: "ftp://x" }, {}, "--endpoint");
  refused({ timeout: "soon" }, {}, "--timeout");
  refused({}, { OTEL_EXPORTER_OTLP_TIMEOUT: "0" }, "OTEL_EXPORTER_OTLP_TIMEOUT");
  refused({ headers: "token" }, {}, "--headers");
});

test("resolveOtlpConfig() gzips unless compression is none: flag over the traces variable over the general one", () => {
  assert.equal(resolveOtlpConfig({}, envOf({ OTEL_EXPORTER_OTLP_COMPRESSION: "none" })).compression, "none");
  assert.equal(resolveOtlpConfig({}, envOf({ OTEL_EXPORTER_OTLP_COMPRESSION: "none", OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: "GZIP" })).compression, "gzip");
  assert.equal(resolveOtlpConfig({ compression: "none" }, envOf({ OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: "gzip" })).compression, "none");
  assert.throws(
    () => resolveOtlpConfig({}, envOf({ OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: "zstd" })),
    (e) => e instanceof OtlpConfigError && e.setting === "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION" && e.message.includes('"zstd" is not supported (use gzip or none)'),
  );
});

test("parseKeyValues() skips empty parts and keeps = inside values", () => {
  assert.deepEqual(parseKeyValues(" a = x=y ,, b=", "--headers"), { a: "x=y", b: "" });
});
