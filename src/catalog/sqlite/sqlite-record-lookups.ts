/**
 * Finding records by what they hold rather than by file: the files whose header id is near or
 * starts with a given one (through an index of the records' header ids), those without one, and
 * those whose stored state mentions a text.
 * @module
 */
import type { SectionKey } from "../store.ts";
import type { SqliteDb, SqliteStatement } from "./sqlite-db.ts";
import { RECORDS } from "./sqlite-record-rows.ts";

/**
 * The records' header ids in order, per section, each with its file: a session reference
 * (`info 01a2`) finds the files whose id starts with it, and a printed id its nearest ids, in a
 * few rows of this index (header-id-index.ts), where comparing every stored id took a warm
 * `search` of 25,000 sessions 200 ms. With the file in the index a row needs no read of its
 * record (the records' rows are large and scattered): the 100 lookups of a search's 50 ids took
 * 8 ms without it, 4 with it and a memory map (by hand, the binary). Made at the first open
 * of a catalog without it, in place of the index of ids alone that came before it.
 */
const HEADER_ID_INDEX = "records_header_ids";

/** The lookups' index, made where missing when a store opens (replacing `records_ids`, without the file). */
export const RECORD_LOOKUP_TABLES = `DROP INDEX IF EXISTS records_ids;
CREATE INDEX IF NOT EXISTS ${HEADER_ID_INDEX} ON records (section, version, header_id, file);`;

/** Rows of `headerIdsFrom`'s first page: a nearest id is most often the first row. */
const FIRST_PAGE = 1;

/** Each direction's comparison with `from`, and order. */
const DIRECTIONS = { down: ["<", "DESC"], up: [">=", "ASC"], above: [">", "ASC"] } as const;

/**
 * `CatalogStore.headerIdsFrom` (see there): through the index of header ids, each row's path by
 * its file's key, a page at a time (each larger than the last). `prepare` gives the store's
 * statement of a text, prepared once: short ids look up two neighbours of each id printed, and a
 * statement prepared, or stepped through row by row, for each took most of its time.
 */
export function* headerIdsFrom(prepare: (sql: string) => SqliteStatement, section: SectionKey, dir: string, from: string, direction: "down" | "up" | "above"): Generator<[string, string]> {
  const [compare, order] = DIRECTIONS[direction];
  // The index's rows in its own order (a copied session's id is stored once per copy, a file
  // once per section): pages meet exactly.
  const page = prepare(`SELECT r.header_id, f.path FROM records r INDEXED BY ${HEADER_ID_INDEX} JOIN files f ON f.id = r.file
    WHERE r.section = ?1 AND r.version = ?2 AND r.header_id ${compare} ?3 AND f.path >= ?4 AND f.path < ?5
    ORDER BY r.header_id ${order}, r.file ${order} LIMIT ?6 OFFSET ?7`);
  for (let offset = 0, size = FIRST_PAGE;; offset += size, size *= 16) {
    const rows = page.values(section.name, section.version, from, dir + "/", dir + "0", size, offset);
    for (const [id, path] of rows) if (typeof id === "string") yield [id, path as string];
    if (rows.length < size) return;
  }
}

/**
 * `CatalogStore.nearestHeaderIds`: the first row of `headerIdsFrom` below and above each of `ids`,
 * all in one statement (each row as a JSON pair: an id and its path); the 100 lookups of a
 * search's 50 ids, one statement each, took 4 ms.
 */
export function nearestHeaderIds(prepare: (sql: string) => SqliteStatement, section: SectionKey, dir: string, ids: readonly string[]): NearestIds[] {
  const nearest = (compare: string, order: string) => `(SELECT json_array(r.header_id, f.path) FROM records r INDEXED BY ${HEADER_ID_INDEX} JOIN files f ON f.id = r.file
    WHERE r.section = ?1 AND r.version = ?2 AND r.header_id ${compare} j.value AND f.path >= ?4 AND f.path < ?5 ORDER BY r.header_id ${order}, r.file ${order} LIMIT 1)`;
  const rows = prepare(`SELECT ${nearest("<", "DESC")}, ${nearest(">", "ASC")} FROM json_each(?3) j ORDER BY j.key`)
    .values(section.name, section.version, JSON.stringify(ids), dir + "/", dir + "0");
  const pair = (cell: unknown) => (typeof cell === "string" ? JSON.parse(cell) as [string, string] : undefined);
  return rows.map(([below, above]) => [pair(below), pair(above)]);
}

/** The first stored id (and its path) below and above an id, where there is one. */
export type NearestIds = [below: [id: string, path: string] | undefined, above: [id: string, path: string] | undefined];

/** `CatalogStore.headerlessFiles`: the first rows of the same index (no id sorts first). */
export function headerlessFiles(db: SqliteDb, section: SectionKey, dir: string): string[] {
  return db.prepare(`SELECT f.path FROM records r INDEXED BY ${HEADER_ID_INDEX} JOIN files f ON f.id = r.file
    WHERE r.section = ?1 AND r.version = ?2 AND r.header_id IS NULL AND f.path >= ?3 AND f.path < ?4`)
    .values(section.name, section.version, dir + "/", dir + "0").map((row) => String(row[0]));
}

/** `CatalogStore.filesMentioning`: searched in SQLite, each state's text once; no record comes into JavaScript to be parsed. */
export function filesMentioning(db: SqliteDb, section: SectionKey, texts: readonly string[], limit: number): Set<string> | undefined {
  // Every text in the state, or every text in the final state (which holds the state's, and its last line's).
  const every = (column: string) => texts.length === 0 ? "1" : texts.map((_, i) => `instr(${column}, ?${i + 4}) > 0`).join(" AND ");
  const rows = db.prepare(`SELECT f.path FROM ${RECORDS} WHERE r.section = ?1 AND r.version = ?2
    AND ((${every("r.state")}) OR instr(r.state, 'file:') > 0 OR (${every("r.final")}) OR instr(r.final, 'file:') > 0) LIMIT ?3`)
    .values(section.name, section.version, Math.floor(limit) + 1, ...texts);
  return rows.length > limit ? undefined : new Set(rows.map((row) => String(row[0])));
}
