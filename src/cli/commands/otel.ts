/**
 * `otel`: sessions as OpenTelemetry GenAI traces over OTLP/HTTP, for any OTLP backend. Each
 * entry is sent once per receiver (the catalog's folder remembers what was accepted), with ids
 * derived from session and entry ids, so running it again is harmless and cheap.
 * @module
 */
import { onOrAfter } from "../../core/stats/date-bound.ts";
import { Redactor } from "../../core/redact/redactor.ts";
import { OtlpConfigError, resolveOtlpConfig } from "../../otel/otlp-config.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { dateOption } from "../date-options.ts";
import { CliError } from "../errors.ts";
import { groupDigits } from "../output/numbers.ts";
import { sessionScope } from "../catalog.ts";
import { runOtelExport, type OtelSummary } from "../otel-export.ts";
import { resolveSessionRef } from "../resolve/session-ref.ts";

const n = groupDigits;
const plural = (count: number, word: string) => `${n(count)} ${word}${count === 1 ? "" : "s"}`;

async function scopeFiles(ctx: CliContext, refs: string[], all: boolean): Promise<string[]> {
  if (refs.length > 0 && all) throw new CliError("bad-option", "Pass session references or --all, not both", "Drop --all to export the sessions named, or the references to export every project");
  if (refs.length === 0) return (await sessionScope(ctx, all)).files;
  const paths: string[] = [];
  for (const ref of refs) paths.push(await resolveSessionRef(ctx, ref));
  return [...new Set(paths)];
}

function printSummary(ctx: CliContext, summary: OtelSummary, where: string, mode: string): void {
  for (const path of summary.skipped) ctx.warn(`pi-session: skipped ${path}: not a pi session`);
  for (const partial of summary.partial) {
    ctx.warn(`pi-session: the receiver rejected ${plural(partial.rejectedSpans, "span")}${partial.errorMessage ? `: ${partial.errorMessage}` : ""}`);
  }
  if (ctx.json) {
    ctx.outJson({
      destination: where,
      dryRun: mode === "dry-run",
      sessions: summary.sessions,
      spans: summary.spans,
      requests: summary.requests,
      delivered: summary.delivered,
      rejectedSpans: summary.rejectedSpans,
      failure: summary.failure ? { kind: summary.failure.kind, status: summary.failure.status ?? null, message: summary.failure.message, attempts: summary.failure.attempts } : null,
    });
    return;
  }
  if (summary.sessions === 0) return ctx.out(`Nothing new to send to ${where}`);
  const what = `${plural(summary.spans, "span")} of ${plural(summary.sessions, "session")}`;
  if (mode === "dry-run") return ctx.out(`Would send ${what} to ${where} in ${plural(summary.requests, "request")} (dry run: nothing sent)`);
  if (mode === "out") return ctx.out(`Wrote ${what} to ${where} (${plural(summary.requests, "request")})`);
  if (!summary.failure) return ctx.out(`Sent ${what} to ${where} in ${plural(summary.requests, "request")}`);
  ctx.out(`Sent ${plural(summary.delivered, "session")} of ${n(summary.sessions)} to ${where}; the rest is sent by the next run`);
}

/** `pi-session otel [<ref>… | --all]`. */
export const otelCommand: CommandSpec = {
  name: "otel",
  summary: "Send sessions as OpenTelemetry GenAI traces (OTLP/HTTP), each entry once, forks counted once",
  args: ["[ref...]"],
  options: [
    { flags: "-a, --all", description: "every project (default: the sessions of this directory)" },
    { flags: "--since <date>", description: "only entries from this day, ISO time, or span back (7d, 12h)" },
    { flags: "--endpoint <url>", description: "OTLP/HTTP endpoint (default $OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, else http://localhost:4318)" },
    { flags: "--protocol <protocol>", description: "encoding (default $OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL, else http/protobuf)", choices: ["http/protobuf", "http/json"] },
    { flags: "--headers <list>", description: "request headers K=V,… (added to $OTEL_EXPORTER_OTLP_[TRACES_]HEADERS)" },
    { flags: "--timeout <ms>", description: "per request (default $OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT, else 10000)" },
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
    let config;
    try {
      config = resolveOtlpConfig(
        { endpoint: opts.endpoint as string | undefined, protocol: opts.protocol as string | undefined, headers: opts.headers as string | undefined, timeout: opts.timeout as string | undefined },
        ctx.deps.storage.env,
      );
    } catch (error) {
      if (!(error instanceof OtlpConfigError)) throw error;
      throw new CliError("bad-option", error.message, "See `pi-session otel --help` for the accepted values");
    }
    const since = dateOption(ctx, "since", opts.since);
    const out = typeof opts.out === "string" ? opts.out : undefined;
    if (out !== undefined && opts.dryRun) throw new CliError("bad-option", "Pass --out or --dry-run, not both", "--dry-run only counts; --out writes the requests to a file");
    const mode = out !== undefined ? "out" : opts.dryRun ? "dry-run" : "send";
    const files = await scopeFiles(ctx, refs, Boolean(opts.all));
    const backoff = Number(ctx.deps.storage.env("PI_SESSION_OTEL_BACKOFF_MS"));
    const summary = await runOtelExport(ctx, {
      files,
      config,
      mode,
      out,
      resend: Boolean(opts.resend),
      content: Boolean(opts.content),
      redactor: new Redactor(),
      wanted: since && ((ms) => onOrAfter(since, ms, new Date(ms).toISOString().slice(0, 10))),
      baseDelayMs: Number.isFinite(backoff) && backoff >= 0 && ctx.deps.storage.env("PI_SESSION_OTEL_BACKOFF_MS") ? backoff : undefined,
    });
    const where = mode === "out" ? (out === "-" ? "stdout" : out!) : config.endpoint;
    printSummary(ctx, summary, where, mode);
    const failure = summary.failure;
    if (!failure) return 0;
    const reason = failure.kind === "network" ? `cannot reach the OTLP receiver at ${config.endpoint}` : `the OTLP receiver at ${config.endpoint} refused a request`;
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
