/**
 * `export`: one shareable file from a session: a self-contained HTML viewer (the default),
 * Markdown, pi's JSONL (re-importable), JSON, or NDJSON rows for analytics. Secrets are
 * masked by default in HTML and Markdown, on request in the others; a count of what was
 * masked goes to stderr. Never writes over a file without `--force`. Never writes the session.
 * @module
 */
import type { SessionEntry } from "../../core/format/types.ts";
import { describeRedactions, type RedactOptions, Redactor } from "../../core/redact/redactor.ts";
import { baseName, expandHome, resolvePath } from "../../core/storage/paths.ts";
import { openExportSource } from "../../export/export-source.ts";
import { htmlExport } from "../../export/html/html-export.ts";
import { jsonExport, jsonlExport } from "../../export/jsonl-export.ts";
import { markdownExport } from "../../export/markdown-export.ts";
import { ndjsonExport } from "../../export/ndjson-export.ts";
import { ScanAhead } from "../../export/scan-ahead.ts";
import { VERSION } from "../../version.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";
import { checkTarget, type OutputTarget, writeOutput } from "../export-output.ts";
import { resolveEntryRef } from "../../query/resolve/entry-ref.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";

const FORMATS = ["html", "markdown", "jsonl", "json", "ndjson"] as const;
type Format = (typeof FORMATS)[number];

const EXTENSIONS: Record<Format, string> = { html: "html", markdown: "md", jsonl: "jsonl", json: "json", ndjson: "ndjson" };

/** The user name for `--redact-paths`: $USER, $USERNAME, $LOGNAME, else the home folder's name. */
function userName(ctx: CliContext): string | undefined {
  const { env, home } = ctx.deps.storage;
  return env("USER") || env("USERNAME") || env("LOGNAME") || baseName(home.replace(/[/\\]+$/, "")) || undefined;
}

/** The default file name of an export: pi-session-<id>.<ext>. */
function defaultName(id: string, format: Format): string {
  return `pi-session-${id.replace(/[^A-Za-z0-9._-]/g, "_")}.${EXTENSIONS[format]}`;
}

function outputTarget(ctx: CliContext, opts: Record<string, unknown>, id: string, format: Format): OutputTarget {
  const output = opts.output;
  if (output === "-") return { kind: "stdout" };
  const name = typeof output === "string" && output !== "" ? expandHome(output, ctx.deps.storage.home) : defaultName(id, format);
  return { kind: "file", path: resolvePath(ctx.cwd, name), force: Boolean(opts.force), mkdir: Boolean(opts.mkdir) };
}

function humanSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const exportCommand: CommandSpec = {
  name: "export",
  summary: "Write one shareable file: an offline HTML viewer, Markdown, pi's JSONL, JSON or NDJSON rows",
  args: ["<ref>"],
  options: [
    { flags: "--format <format>", description: "html (default), markdown, jsonl (pi's /export, re-importable), json or ndjson", choices: [...FORMATS], default: "html" },
    { flags: "--leaf <entry>", description: "export the branch ending here: id, unique prefix or label:NAME (default: the last entry)" },
    { flags: "--all-branches", description: "include every branch, not only the one ending at the leaf (ndjson: the default without --leaf)" },
    { flags: "-o, --output <file>", description: "write here (`-` for stdout); default pi-session-<id>.<ext> in the current directory" },
    { flags: "--force", description: "replace the output file if it exists" },
    { flags: "--mkdir", description: "create the output file's folder if it is missing (else a missing folder is an error)" },
    { flags: "--redact", description: "mask API keys, tokens, private keys and passwords (default for html and markdown)" },
    { flags: "--no-redact", description: "do not mask secrets" },
    { flags: "--redact-paths", description: "also replace the home directory with ~ and the user name with [user]" },
  ],
  examples: [
    "pi-session export @",
    "pi-session export 01a2b3 --format markdown -o transcript.md --redact-paths",
    "pi-session export @ --format ndjson -o - | duckdb -c \"select model, sum(cost) from read_json_auto('/dev/stdin') group by 1\"",
  ],
  async run(ctx, [ref], opts) {
    const format = String(opts.format ?? "html") as Format;
    if (format === "html" && opts.output === "-" && ctx.deps.stdoutIsTTY) {
      // A page of HTML and script is no use on a terminal, and floods its scrollback.
      throw new CliError("html-to-terminal", "Not printing an HTML page on the terminal", "Write it to a file: leave out -o for pi-session-<id>.html here, or -o FILE; or pipe it: -o - | …");
    }
    const path = await resolveSessionRef(ctx, ref);
    // commander: --redact sets true, --no-redact false, neither leaves it undefined.
    const secrets = typeof opts.redact === "boolean" ? opts.redact : format === "html" || format === "markdown";
    const paths = Boolean(opts.redactPaths);
    const redaction: RedactOptions | null = secrets || paths
      ? { secrets, ...(paths ? { paths: { home: ctx.deps.storage.home, user: userName(ctx) } } : {}) }
      : null;
    // A big session's lines are scanned for secrets on another thread during the light pass.
    const ahead = format === "html" && redaction ? await ScanAhead.start(ctx.fs, path, redaction) : null;
    try {
      return await exportSession(ctx, path, format, opts, redaction, ahead);
    } finally {
      await ahead?.close();
    }
  },
};

/** The export itself, once the session is resolved and the redaction (and any scan ahead) chosen. */
async function exportSession(ctx: CliContext, path: string, format: Format, opts: Record<string, unknown>, redaction: RedactOptions | null, ahead: ScanAhead | null): Promise<number> {
  const source = await openExportSource(ctx.fs, path);
  const target = outputTarget(ctx, opts, source.header.id, format);
  await checkTarget(ctx, target);

  const { tree } = source;
  const leafId = typeof opts.leaf === "string" ? resolveEntryRef(tree, opts.leaf, path) : tree.leafId;
  const walk = tree.walk(leafId);
  if (walk.stop) {
    const why = walk.stop.kind === "cycle" ? "leads back into a parent cycle" : "is not in the file";
    ctx.notice(`the branch starts at "${walk.stop.entryId}": its parent "${walk.stop.parentId}" ${why}`);
  }
  const allBranches = Boolean(opts.allBranches) || (format === "ndjson" && opts.leaf === undefined);
  const keep = new Set<SessionEntry>(allBranches ? tree.entries : walk.path);

  const redactor = redaction ? new Redactor(redaction) : null;
  const secrets = redaction?.secrets ?? false;
  const paths = redaction?.paths !== undefined;
  const now = ctx.deps.now();
  const generator = `pi-session ${VERSION}`;
  const common = { source, keep, leafId, allBranches, redactor, now };
  const chunks: AsyncIterable<Uint8Array | string> = format === "html"
    ? htmlExport({ ...common, redaction: { secrets, paths }, generator, scanAhead: ahead })
    : format === "markdown"
    ? markdownExport({ ...common, generator })
    : format === "jsonl"
    ? jsonlExport(common)
    : format === "json"
    ? jsonExport(common)
    : ndjsonExport(common);
  const bytes = await writeOutput(ctx, target, chunks);

  if (redactor) {
    const counts = redactor.summary();
    ctx.note(counts.length > 0 ? `Redacted ${redactor.total}: ${describeRedactions(counts)}` : "Redacted nothing: no secrets found");
  } else if (format === "html" || format === "markdown") {
    ctx.notice("not redacted (--no-redact): review the file before sharing it");
  }
  if (target.kind === "file") {
    if (ctx.json) ctx.outJson({ path: target.path, format, bytes, leafId, entries: keep.size, redactions: redactor?.summary() ?? null });
    else {
      ctx.note(`Wrote ${keep.size} entries (${humanSize(bytes)})`);
      ctx.out(target.path);
    }
  }
  return 0;
}
