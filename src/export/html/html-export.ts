/**
 * The HTML export as a stream of bytes: a head with a strict Content-Security-Policy (no
 * network, no script or style but ours, pinned by SHA-256), the session's entry lines in
 * inert data blocks with every `<` escaped (so nothing in the data can close a tag), a meta
 * block, and the viewer. Lines go from disk to output as bytes, parsed only when redaction
 * may change them: a 90 MB session streams through in bounded memory.
 * @module
 */
import type { SessionEntry } from "../../core/format/types.ts";
import type { Redactor } from "../../core/redact/redactor.ts";
import { LINE_HAS_LESS_THAN } from "../../core/redact/line-scan.ts";
import type { ExportSource } from "../export-source.ts";
import type { LineBatch } from "../ordered-lines.ts";
import { redactLine } from "../redact-line.ts";
import type { ScanAhead } from "../scan-ahead.ts";
import { SessionChangedError } from "../../session/errors.ts";
import { DataBlocks } from "./data-blocks.ts";
import { VIEWER_JS } from "./viewer-bundle.ts";
import { VIEWER_CSS } from "./viewer-style.ts";

export interface HtmlExportOptions {
  source: ExportSource;
  /** Entries to embed (the branch, or everything). */
  keep: ReadonlySet<SessionEntry>;
  leafId: string | null;
  allBranches: boolean;
  /** Masks secrets; null exports the data as it is. */
  redactor: Redactor | null;
  /** Whether the redactor masks secrets and paths, for the page's note. */
  redaction: { secrets: boolean; paths: boolean };
  now: Date;
  /** `pi-session 1.2.3`. */
  generator: string;
  /** Bytes of data per data block (4 MiB; tests make it small to cut lines across blocks). */
  blockBytes?: number;
  /** The lines' scan flags worked out on another thread, where there is one (a big file). */
  scanAhead?: ScanAhead | null;
}

const encoder = new TextEncoder();
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return btoa(String.fromCharCode(...digest));
}

let policy: Promise<string> | undefined;

/** The Content-Security-Policy: nothing from anywhere, except our one script and one stylesheet. */
export function contentSecurityPolicy(): Promise<string> {
  policy ??= (async () =>
    [
      "default-src 'none'",
      `script-src 'sha256-${await sha256(VIEWER_JS)}'`,
      `style-src 'sha256-${await sha256(VIEWER_CSS)}'`,
      "img-src data:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-src 'none'",
      "object-src 'none'",
    ].join("; "))();
  return policy;
}

const NEWLINE = new Uint8Array([0x0a]);

/**
 * A line as it goes into the page, and its `LINE_HAS_LESS_THAN` flag: one scan answers "may
 * masking change it?" and "does it hold a `<`?"; only a line masking may change is parsed.
 * `scanned`: the redactor's scan flags of these bytes, when already known (else -1).
 */
function masked(line: Uint8Array, redactor: Redactor | null, scanned = -1): { bytes: Uint8Array; flags: number } {
  let flags = redactor ? (scanned >= 0 ? scanned : redactor.scan(line)) : LINE_HAS_LESS_THAN;
  if (!redactor?.mayChange(flags)) return { bytes: line, flags };
  const bytes = redactLine(line, redactor);
  if (bytes !== line) flags |= LINE_HAS_LESS_THAN;
  return { bytes, flags };
}

/**
 * The data blocks of lines that come in batches (`ExportSource.lineBatches`): the same bytes as
 * line by line, but a run of lines that masking leaves alone and that sit next to each other in
 * the file (the \n between them included) goes into the blocks in one piece. A line's scan flags
 * come from `ahead` where it has them.
 */
async function* batchedData(path: string, batches: () => AsyncIterable<LineBatch>, redactor: Redactor | null, blocks: DataBlocks, ahead: ScanAhead | null): AsyncIterable<Uint8Array> {
  for await (const { bytes, starts, ends, offsets } of batches()) {
    let runStart = -1;
    let runEnd = -1;
    let runHasLessThan = false;
    for (let k = 0; k < starts.length; k++) {
      const line = bytes.subarray(starts[k], ends[k]);
      const out = masked(line, redactor, ahead ? ahead.flagsOf(offsets[k], ends[k] - starts[k]) : -1);
      const lessThan = (out.flags & LINE_HAS_LESS_THAN) !== 0;
      if (out.bytes === line && runStart >= 0 && starts[k] === runEnd + 1 && bytes[runEnd] === 0x0a) {
        runEnd = ends[k];
        runHasLessThan ||= lessThan;
        continue;
      }
      if (runStart >= 0) {
        yield* blocks.add(bytes.subarray(runStart, runEnd), runHasLessThan);
        yield* blocks.add(NEWLINE, false);
        runStart = -1;
      }
      if (out.bytes === line) {
        runStart = starts[k];
        runEnd = ends[k];
        runHasLessThan = lessThan;
      } else {
        yield* blocks.add(out.bytes, lessThan);
        yield* blocks.add(NEWLINE, false);
      }
    }
    if (runStart >= 0) {
      yield* blocks.add(bytes.subarray(runStart, runEnd), runHasLessThan);
      yield* blocks.add(NEWLINE, false);
    }
  }
  if (ahead && redactor && !(await ahead.unchanged())) await rescan(path, batches, redactor, ahead);
}

/**
 * The file was written to during the export: every line is read and scanned again, and the
 * export fails (before its file is put in place) if a line's flags are not those the worker gave,
 * as a secret in it might then have gone out unmasked. Lines only appended after the light pass
 * change nothing (they are not exported).
 */
async function rescan(path: string, batches: () => AsyncIterable<LineBatch>, redactor: Redactor, ahead: ScanAhead): Promise<void> {
  for await (const { bytes, starts, ends, numbers, offsets } of batches()) {
    for (let k = 0; k < starts.length; k++) {
      const given = ahead.flagsOf(offsets[k], ends[k] - starts[k]);
      if (given >= 0 && given !== redactor.scan(bytes.subarray(starts[k], ends[k]))) {
        throw new SessionChangedError(path, numbers[k]);
      }
    }
  }
}

/**
 * The HTML document, chunk by chunk.
 *
 * @example
 * ```ts
 * // for await (const chunk of htmlExport({ source, keep, leafId, … })) await sink.write(chunk);
 * ```
 */
export async function* htmlExport(options: HtmlExportOptions): AsyncIterable<Uint8Array> {
  const { source, redactor } = options;
  const { tree } = source;
  // Header and name are masked once, before the lines, so each secret is counted once.
  const header = redactor ? redactor.value(source.header) : source.header;
  const name = redactor && tree.sessionName !== undefined ? redactor.text(tree.sessionName) : tree.sessionName;
  const title = escapeHtml(name ?? `Session ${header.id}`);
  yield encoder.encode(
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
      `<meta http-equiv="Content-Security-Policy" content="${await contentSecurityPolicy()}">\n` +
      '<meta name="referrer" content="no-referrer">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
      `<meta name="generator" content="${escapeHtml(options.generator)}">\n` +
      `<title>${title}</title>\n<style>${VIEWER_CSS}</style>\n</head>\n<body>\n` +
      '<div id="app"><p class="loading">Loading the session…</p></div>\n' +
      "<noscript><p>This pi session export needs JavaScript to show the conversation.</p></noscript>\n",
  );

  const blocks = new DataBlocks(options.blockBytes);
  const { lineBatches } = source;
  if (lineBatches) yield* batchedData(source.path, () => lineBatches(options.keep), redactor, blocks, options.scanAhead ?? null);
  else {
    for await (const line of source.lines(options.keep)) {
      const { bytes, flags } = masked(line, redactor);
      yield* blocks.add(bytes, (flags & LINE_HAS_LESS_THAN) !== 0);
      yield* blocks.add(NEWLINE, false);
    }
  }
  yield blocks.finish();

  const labels: Record<string, string> = {};
  for (const entry of options.keep) {
    const label = tree.getLabel(entry.id);
    if (label !== undefined) labels[entry.id] = redactor ? redactor.text(label) : label;
  }
  const meta = {
    generator: options.generator,
    exportedAt: options.now.toISOString(),
    header,
    leafId: options.leafId,
    name,
    labels,
    allBranches: options.allBranches,
    redaction: { ...options.redaction, counts: redactor?.summary() ?? [] },
  };
  yield encoder.encode(
    `<script type="application/json" id="pi-session-meta">${JSON.stringify(meta).replace(/</g, "\\u003c")}</script>\n` +
      `<script>${VIEWER_JS}</script>\n</body>\n</html>\n`,
  );
}
