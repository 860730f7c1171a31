/**
 * The catalog section behind indexed search: every searchable text of every entry, emitted
 * as rows for the FTS index with where the entry's line is, so a hit can be re-read and
 * checked. The state itself only counts them.
 * @module
 */
import type { RawLine } from "../read/line-splitter.ts";
import { keyIs, stringValue, valueEnd } from "../read/scan-keys.ts";
import { entryDocs } from "../search/entry-docs.ts";
import type { DigestKind } from "./digester.ts";
import { lineEntry } from "./line-entry.ts";
import { scanMembers, STOP } from "./scan-members.ts";

/** One searchable text and where its entry is in the file. */
export interface DocRow {
  entryId: string | null;
  timestamp: string | null;
  role: string;
  part: "text" | "thinking";
  text: string;
  line: number;
  offset: number;
  length: number;
}

const TEXT_TYPES = new Set(["message", "custom_message", "compaction", "branch_summary", "label", "session_info"]);

/** False for lines whose type never holds searchable text. */
function mayHoldText(b: Uint8Array): boolean {
  let type: string | undefined;
  scanMembers(b, 0, (ks, ke, vs) => {
    if (!keyIs(b, ks, ke, "type")) return valueEnd(b, vs);
    type = stringValue(b, vs, valueEnd(b, vs));
    return STOP;
  });
  return type === undefined || TEXT_TYPES.has(type);
}

/** The document rows of one entry line. */
export function docRowsOfLine(line: RawLine): DocRow[] {
  if (!mayHoldText(line.bytes)) return [];
  const entry = lineEntry(line);
  if (!entry) return [];
  const where = { line: line.number, offset: line.offset, length: line.bytes.length };
  const entryId = typeof entry.id === "string" ? entry.id : null;
  const timestamp = typeof entry.timestamp === "string" ? entry.timestamp : null;
  return entryDocs(entry).map((doc) => ({ entryId, timestamp, ...doc, ...where }));
}

/** Search documents per session file (emitted, not kept). */
export const docsDigest: DigestKind<{ docs: number }, DocRow> = {
  name: "docs",
  version: 2,
  initial: () => ({ docs: 0 }),
  entry(data, line, _header, emit) {
    for (const row of docRowsOfLine(line)) {
      data.docs++;
      emit(row);
    }
  },
};
