/**
 * The header facts of each usage record, kept beside the records in a small table of their own
 * (`heads`, keyed by file number: sqlite-files.ts), for a reader that puts sessions in order before it loads them (`stats`): reading
 * them from the states themselves meant reading every state in full (27 MB of them for 25,000
 * sessions, one of 6.5 MB) for a few bytes each. Triggers on `records` keep the table as the
 * records are, whichever program writes them; a database made before it gets it filled once.
 * @module
 */
import type { StoredHead } from "../store.ts";
import type { SqliteDb } from "./sqlite-db.ts";

/** The sections whose header facts are kept apart. */
const SECTIONS = "('usage')";

/**
 * The facts of a state `s`, as SQL: `kind` 1 for a session (a header object, not rejected), 0
 * for a file that is not one (no header, or rejected), -1 for a state of the wrong shape; the
 * header's timestamp and parentSession where they are strings; the bad header's note.
 */
const FACTS = `
  CASE WHEN NOT json_valid(s) THEN -1
    WHEN json_type(s, '$.rejected') NOT IN ('true', 'false') OR json_type(s, '$.rejected') IS NULL THEN -1
    WHEN json_type(s, '$.header') = 'object' THEN (json_type(s, '$.rejected') = 'false')
    WHEN json_type(s, '$.header') = 'null' THEN 0
    ELSE -1 END,
  CASE WHEN json_valid(s) AND json_type(s, '$.header.timestamp') = 'text' THEN json_extract(s, '$.header.timestamp') END,
  CASE WHEN json_valid(s) AND json_type(s, '$.header.parentSession') = 'text' THEN json_extract(s, '$.header.parentSession') END,
  CASE WHEN json_valid(s) AND json_type(s, '$.badHeader') = 'text' THEN json_extract(s, '$.badHeader') END`;

/** States longer than this (characters) have their facts read from their head alone (`headOf`). */
const LONG_STATE = 65_536;

/**
 * The part of a state that its facts are read from (SQL): a long one is cut before its data.
 * SQLite's JSON functions parse the whole text at each of the calls in FACTS: saving the 1.2 GB
 * session's usage state (2.8 MB) took 0.6 s and 70 MB of resident memory more in a cold `index`
 * (its peak), 0.9–1.1 s and 59 MB alone (0.3 s and 28 MB with the cut). Stores write the header
 * and the rejected flag before the data; the cut is at the first `,"data":`, which no JSON string
 * holds (its quotes would be escaped): closed with `}`, it is valid JSON only when that is a
 * member of the state itself, not of an object within it. Else, and when a `"badHeader":` comes
 * after the data (a state made as `{...}` and then given one), the whole text is read, as for a
 * short state.
 *
 * The state itself is read twice only, into `w`, its first `WINDOW` characters (all of a short
 * one), and `b`, where its `"badHeader":` is: SQLite copies a long text into a buffer of its own
 * at each mention of it in a statement, and keeps the buffer till the statement ends. Mentioned at
 * each step of the cut (ten times), the 2.8 MB state took SQLite 33.5 MB at its peak to save; 20.6
 * MB with the window, 14.8 without this trigger at all (`sqlite3`'s `.stats`, the same insert
 * into a copy of the 25,000-session catalog). A cold `index` of that session alone grew by 36-37
 * MB while it saved the state, by 25 MB now (the binary, 3 runs each). `whole` is the text again,
 * read only when the cut fails: a `,"data":` not in the window, inside the header, or before a
 * `"badHeader":`.
 */
const headOf = (w: string, b: string, whole: string) => `CASE WHEN length(${w}) <= ${LONG_STATE} THEN ${w}
  WHEN instr(${w}, ',"data":') > 0 AND json_valid(substr(${w}, 1, instr(${w}, ',"data":') - 1) || '}') AND ${b} < instr(${w}, ',"data":')
  THEN substr(${w}, 1, instr(${w}, ',"data":') - 1) || '}' ELSE ${whole} END`;

/** Characters of a state its head is looked for in: one more than a short state may have. */
const WINDOW = LONG_STATE + 1;

/** `w` and `b` of `headOf`, of a state `t` (SQL). */
const windowOf = (t: string) => `substr(${t}, 1, ${WINDOW}) AS w, instr(${t}, '"badHeader":') AS b`;

/**
 * A subquery that SQLite computes once (an OFFSET keeps it from being merged into the query
 * around it, which would compute it again at each use: FACTS uses `s` 15 times).
 */
const ONCE = (select: string) => `(${select} LIMIT 1 OFFSET 0)`;

/** Keeps a subquery of many rows from being merged into the query around it (as `ONCE` does for one). */
const EACH = "LIMIT -1 OFFSET 0";

/**
 * What tells the triggers that read a long state through a window from those made before
 * (sqlite_master's text): the window's bounds, which only they hold.
 */
const HEAD_MARK = `1, ${WINDOW}) AS w`;

const PUT = (row: string) => {
  const state = `coalesce(${row}.final, ${row}.state)`;
  return `INSERT OR REPLACE INTO heads (section, file, version, record, kind, created, parent, bad)
   SELECT ${row}.section, ${row}.file, ${row}.version, ${row}.rowid, ${FACTS} FROM ${ONCE(`SELECT ${headOf("w", "b", `(SELECT ${state})`)} AS s FROM ${ONCE(`SELECT ${windowOf(state)}`)}`)}`;
};

/** Tables and triggers; `heads_put` is made last, so its presence says the rest is there. */
const HEADS = `
CREATE TABLE IF NOT EXISTS heads (
  section TEXT NOT NULL, file INTEGER NOT NULL, version INTEGER NOT NULL, record INTEGER NOT NULL,
  kind INTEGER NOT NULL, created TEXT, parent TEXT, bad TEXT, PRIMARY KEY (section, file)) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS heads_update AFTER UPDATE ON records WHEN new.section IN ${SECTIONS} BEGIN ${PUT("new")}; END;
CREATE TRIGGER IF NOT EXISTS heads_drop AFTER DELETE ON records WHEN old.section IN ${SECTIONS} BEGIN
  DELETE FROM heads WHERE section = old.section AND file = old.file AND record = old.rowid; END;
CREATE TRIGGER IF NOT EXISTS heads_put AFTER INSERT ON records WHEN new.section IN ${SECTIONS} BEGIN ${PUT("new")}; END;`;

/** The table's name, for a schema change that drops every table. */
export const HEAD_TABLE = "heads";

/**
 * Makes the table and its triggers where they are missing, and then fills the table from the
 * records already there. Call inside the transaction that sets the schema up.
 */
export function setUpHeads(db: SqliteDb): void {
  const made = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'heads_put'").get();
  if (made && String(made.sql).includes(HEAD_MARK)) return;
  if (made) {
    // Triggers made before: the same facts, read from the whole state, or from a state mentioned
    // at each step of its cut. Made again; the table is as it was.
    db.exec("DROP TRIGGER IF EXISTS heads_put; DROP TRIGGER IF EXISTS heads_update; DROP TRIGGER IF EXISTS heads_drop");
    db.exec(HEADS);
    return;
  }
  db.exec(HEADS);
  db.exec("DELETE FROM heads");
  db.exec(`INSERT OR REPLACE INTO heads (section, file, version, record, kind, created, parent, bad)
    SELECT section, file, version, id, ${FACTS}
    FROM (SELECT section, file, version, id, ${headOf("w", "b", "(SELECT coalesce(final, state) FROM records WHERE rowid = id)")} AS s
      FROM (SELECT section, file, version, rowid AS id, ${windowOf("coalesce(final, state)")} FROM records WHERE section IN ${SECTIONS} ${EACH}) ${EACH})`);
}

/** Heads read per query by `eachHeadOf`. */
const HEADS_PER_QUERY = 2048;

/** The kept facts of `section`'s records (see `CatalogStore.loadHeads`). */
export function headsOf(db: SqliteDb, section: { name: string; version: number }): StoredHead[] {
  const heads: StoredHead[] = [];
  eachHeadOf(db, section, (head) => heads.push(head));
  return heads;
}

/**
 * The kept facts of `section`'s records one at a time, in their paths' order (see
 * `CatalogStore.eachHead`), read `HEADS_PER_QUERY` at a time: the rows of 25,000 records are
 * never held together.
 */
export function eachHeadOf(db: SqliteDb, section: { name: string; version: number }, visit: (head: StoredHead) => void): void {
  // In the paths' order, as when the table was keyed by path: a reader's notes come in that order.
  // Through the paths' index (CROSS JOIN keeps that order), not sorted after: a fourth of the time.
  // Each query goes on after the last path of the one before, through the same index.
  const statement = db.prepare(
    `SELECT h.record, f.path, h.kind, h.created, h.parent, h.bad, h.file FROM files f CROSS JOIN heads h ON h.section = ? AND h.file = f.id
     WHERE h.version = ? AND f.path > ? ORDER BY f.path LIMIT ${HEADS_PER_QUERY}`,
  );
  let after = "";
  for (;;) {
    const rows = statement.values(section.name, section.version, after);
    for (const [record, path, kind, created, parent, bad, file] of rows) {
      if (Number(kind) < 0) throw new SyntaxError("a stored state's header or rejected flag has the wrong shape");
      const head: StoredHead = { path: String(path), row: Number(record), file: Number(file), session: Number(kind) === 1 };
      if (typeof created === "string") head.created = created;
      if (typeof parent === "string") head.parentSession = parent;
      if (typeof bad === "string") head.badHeader = bad;
      visit(head);
    }
    if (rows.length < HEADS_PER_QUERY) return;
    after = String(rows[rows.length - 1][1]);
  }
}
