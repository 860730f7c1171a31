/**
 * How the SQLite catalog's records come back from their rows: the columns a load selects, the
 * join that gives each record its path, and the decoding that leaves out a record it cannot trust.
 * @module
 */
import { type CatalogRecord, decodeState, recordProblem, type SectionKey } from "../store.ts";

/** The columns of a record a load selects. */
export const COLUMNS = "f.path, r.size, r.mtime, r.end_, r.lines, r.head, r.tail, r.header_id, r.state, r.final";
/** Records with their paths, as `r` and `f`. */
export const RECORDS = "records r JOIN files f ON f.id = r.file";

/**
 * Adds the records of `rows` that are sound; one that does not parse or has the wrong shape
 * (`state` 'null', no data) is left out, as if missing, so its file is read again.
 */
export function addRecords(section: SectionKey, records: Map<string, CatalogRecord>, rows: Record<string, unknown>[]): void {
  for (const row of rows) {
    let record: CatalogRecord;
    try {
      record = {
        path: row.path as string,
        size: Number(row.size),
        mtimeMs: Number(row.mtime),
        end: Number(row.end_),
        lines: Number(row.lines),
        headHash: row.head as string,
        tailHash: row.tail as string,
        headerId: (row.header_id as string | null) ?? null,
        state: decodeState(section, JSON.parse(row.state as string)),
      };
      if (typeof row.final === "string") record.final = decodeState(section, JSON.parse(row.final));
    } catch {
      continue;
    }
    if (recordProblem(section, record) === null) records.set(record.path, record);
  }
}
