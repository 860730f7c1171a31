/**
 * `otel`: sessions as OpenTelemetry GenAI traces over OTLP/HTTP, for any OTLP backend. Each
 * entry is sent once per receiver (the catalog's folder remembers what was accepted), with ids
 * derived from session and entry ids, so running it again is harmless and cheap. The work is
 * the `otel` query's; this prints it.
 * @module
 */
import { otelExport, type OtelResult } from "../../query/otel.ts";
import { groupDigits } from "../../render/numbers.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";

const n = groupDigits;
const plural = (count: number, word: string) => `${n(count)} ${word}${count === 1 ? "" : "s"}`;

function printSummary(ctx: CliContext, result: OtelResult): void {
  const { value, mode } = result;
  for (const path of result.skipped) ctx.warn(`skipped ${path}: not a pi session`);
  for (const partial of result.partial) {
    ctx.warn(`the receiver rejected ${plural(partial.rejectedSpans, "span")}${partial.errorMessage ? `: ${partial.errorMessage}` : ""}`);
  }
  // Requests written to stdout: the summary goes to stderr, out of the data's way.
  const toStdout = mode === "out" && value.destination === "stdout";
  if (ctx.json && !toStdout) return ctx.outJson(value);
  const where = value.destination;
  if (value.sessions === 0) return ctx.out(`Nothing new to send to ${where}`);
  const what = `${plural(value.spans, "span")} of ${plural(value.sessions, "session")}`;
  if (mode === "dry-run") return ctx.out(`Would send ${what} to ${where} in ${plural(value.requests, "request")} (dry run: nothing sent)`);
  if (mode === "out") return (toStdout ? ctx.note.bind(ctx) : ctx.out.bind(ctx))(`Wrote ${what} to ${where} (${plural(value.requests, "request")})`);
  if (!value.failure) return ctx.out(`Sent ${what} to ${where} in ${plural(value.requests, "request")}`);
  ctx.out(`Sent ${plural(value.delivered, "session")} in full to ${where} before a request failed; the rest goes with the next run`);
}

/** `pi-session otel [<ref>… | --all]`. */
export const otelCommand: CommandSpec = {
  name: "otel",
  summary: "Send sessions as OpenTelemetry GenAI traces (OTLP/HTTP), each entry once, forks counted once",
  args: ["[ref...]"],
  options: [
    { flags: "-a, --all", description: "every project (default: the sessions of this directory)" },
    { flags: "--since <date>", description: "only entries from this day, ISO time, or span back (7d, 12h); older ones are not sent later either" },
    { flags: "--endpoint <url>", description: "OTLP/HTTP endpoint (default $OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, else http://localhost:4318)" },
    { flags: "--protocol <protocol>", description: "encoding (default $OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL, else http/protobuf)", choices: ["http/protobuf", "http/json"] },
    { flags: "--headers <list>", description: "request headers K=V,… (over $OTEL_EXPORTER_OTLP_[TRACES_]HEADERS)" },
    { flags: "--timeout <ms>", description: "per request (default $OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT, else 10000)" },
    { flags: "--compression <how>", description: "request bodies (default $OTEL_EXPORTER_OTLP_[TRACES_]COMPRESSION, else gzip)", choices: ["gzip", "none"] },
    { flags: "--content", description: "include message content (gen_ai.input/output.messages), secrets masked" },
    { flags: "--resend", description: "send every entry again, not only what the receiver has not accepted yet" },
    { flags: "--dry-run", description: "count what would be sent; send nothing, remember nothing" },
    { flags: "--out <file>", description: "write OTLP/JSON (one ExportTraceServiceRequest per line; - for stdout) instead of sending" },
  ],
  notes: [
    "Service name and resource attributes come from $OTEL_SERVICE_NAME (default pi) and $OTEL_RESOURCE_ATTRIBUTES.",
    "Exit 0 when everything new was accepted (or nothing was new), 1 when the receiver refused a request, 3 when it could not be reached.",
  ],
  examples: ["pi-session otel --all --endpoint http://collector:4318", "pi-session otel @ --dry-run", "pi-session otel --all --since 7d --out traces.jsonl"],
  async run(ctx, refs, opts) {
    const result = await otelExport(ctx, {
      refs,
      all: Boolean(opts.all),
      since: opts.since as string | undefined,
      endpoint: opts.endpoint as string | undefined,
      protocol: opts.protocol as string | undefined,
      headers: opts.headers as string | undefined,
      timeout: opts.timeout as string | undefined,
      compression: opts.compression as string | undefined,
      content: Boolean(opts.content),
      resend: Boolean(opts.resend),
      dryRun: Boolean(opts.dryRun),
      out: opts.out as string | undefined,
      write: (line) => ctx.deps.stdout(line),
      progress: ctx.deps.stderrIsTTY,
    });
    printSummary(ctx, result);
    const failure = result.value.failure;
    if (!failure) return 0;
    const reason = failure.kind === "network" ? `cannot reach the OTLP receiver at ${result.endpoint}` : `the OTLP receiver at ${result.endpoint} refused a request`;
    ctx.deps.stderr(`pi-session: ${reason}: ${failure.message} (after ${plural(failure.attempts, "attempt")})\n`);
    ctx.deps.stderr(
      `hint: ${
        failure.kind === "network"
          ? "Check that the collector runs and --endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT) points at its OTLP/HTTP port (4318); nothing unsent was marked sent"
          : "Check the endpoint path, --headers (authentication) and --protocol; the refused sessions were not marked sent"
      }\n`,
    );
    return failure.kind === "network" ? 3 : 1;
  },
};
