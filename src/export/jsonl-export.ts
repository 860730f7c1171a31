/**
 * JSONL and JSON exports. JSONL follows pi's `/export file.jsonl`: a new header (same session
 * id, `timestamp` now, no `parentSession`), then the branch root to leaf, each entry
 * re-parented onto the one before, so pi's `/import` reads it as one straight line.
 * JSON is `{header, leafId, entries}`, one entry per line.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { CURRENT_SESSION_VERSION } from "../core/format/types.ts";
import type { Redactor } from "../core/redact/redactor.ts";
import type { ExportSource } from "./export-source.ts";

export interface DataExportOptions {
  source: ExportSource;
  keep: ReadonlySet<SessionEntry>;
  leafId: string | null;
  allBranches: boolean;
  redactor: Redactor | null;
  now: Date;
}

/**
 * Bytes read between two garbage collections of a branch: each line is parsed and written again,
 * more garbage than a read that only parses makes (the 1.2 GB bench session peaked at 302–310 MB
 * with the reader's 16 MB, 269–270 MB with 8 MB, by hand).
 */
const COLLECT_EVERY = 8 * 1024 * 1024;

/** The kept entries, masked; in branch order for a branch, in file order for all branches. */
async function* ordered(options: DataExportOptions): AsyncIterable<SessionEntry> {
  const { source, redactor } = options;
  const mask = (entry: SessionEntry) => (redactor ? redactor.value(entry) : entry);
  if (options.allBranches) {
    for await (const entry of source.entries(options.keep)) yield mask(entry);
    return;
  }
  // A branch, root to leaf: read in that order, a few megabytes at a time (a hand-edited file
  // may hold an entry before its parent). One whose line no longer parses is skipped.
  for await (const entry of source.inOrder(source.tree.getPath(options.leafId), { collectEvery: COLLECT_EVERY })) yield mask(entry);
}

/**
 * pi's JSONL export, line by line.
 *
 * @example
 * ```ts
 * // for await (const line of jsonlExport(options)) await sink.write(line);
 * ```
 */
export async function* jsonlExport(options: DataExportOptions): AsyncIterable<string> {
  const { header } = options.source;
  const fresh: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id: header.id, timestamp: options.now.toISOString(), cwd: header.cwd };
  yield JSON.stringify(options.redactor ? options.redactor.value(fresh) : fresh) + "\n";
  let parentId: string | null = null;
  for await (const entry of ordered(options)) {
    // Spread then override keeps pi's key order (`parentId` stays in its place).
    yield JSON.stringify(options.allBranches ? entry : { ...entry, parentId }) + "\n";
    parentId = entry.id;
  }
}

/** `{header, leafId, entries}` with the stored header and entries as they are. */
export async function* jsonExport(options: DataExportOptions): AsyncIterable<string> {
  const header = options.redactor ? options.redactor.value(options.source.header) : options.source.header;
  yield `{"header":${JSON.stringify(header)},\n"leafId":${JSON.stringify(options.leafId)},\n"entries":[`;
  let first = true;
  for await (const entry of ordered(options)) {
    yield (first ? "\n" : ",\n") + JSON.stringify(entry);
    first = false;
  }
  yield "\n]}\n";
}
