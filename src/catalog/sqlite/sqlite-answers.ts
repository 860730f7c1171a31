/**
 * Answers kept beside the records they were made from (`answers`), for a query that reads every
 * record of a section to answer (`stats`: 25,000 usage states, about a second): asked again while
 * no record of the section changed, the answer is read back instead (a warm `stats --all` of
 * 25,000 sessions: 0.13 s of CPU, not 1.3 s). Each section's records count
 * their changes (`generations`), by triggers on `records`, whoever writes them (an older
 * pi-session too); an answer is good only at the count it was made at. Where the triggers are
 * made (a new file, or one that some program gave a new `records` table), answers kept so far
 * are dropped: their records may have changed uncounted.
 * @module
 */
import type { AnswerBase, AnswerStore, SectionKey } from "../store.ts";
import type { SqliteDb, SqliteStatement } from "./sqlite-db.ts";

/** Answers kept per section at most. */
const KEPT_PER_SECTION = 16;

/** The tables a schema change drops. */
export const ANSWER_TABLE_NAMES = ["answers", "generations", "answer_bases", "answer_changes"];

/** `section` is the section's name: its version is in the answer's key, and a new version writes new records. */
const ANSWER_TABLES = `
CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, section TEXT NOT NULL, generation INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS generations (section TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS answer_bases (section TEXT PRIMARY KEY, key TEXT NOT NULL, generation INTEGER NOT NULL, logged INTEGER NOT NULL, body BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS answer_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, section TEXT NOT NULL, file INTEGER NOT NULL, dropped INTEGER NOT NULL);`;

const COUNT = (row: string) =>
  `INSERT INTO generations (section, n) VALUES (${row}.section, 1) ON CONFLICT (section) DO UPDATE SET n = n + 1;`;

/** The sections whose changes are counted: those answers are kept for (a cold build writes 25,000 records of each). */
const SECTIONS = "('usage')";

/** The triggers; `answers_counted` is made last, so its presence says the rest is there. */
const TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS answers_count_update AFTER UPDATE ON records WHEN old.section IN ${SECTIONS} OR new.section IN ${SECTIONS}
  BEGIN ${COUNT("old")} ${COUNT("new")} END;
CREATE TRIGGER IF NOT EXISTS answers_count_delete AFTER DELETE ON records WHEN old.section IN ${SECTIONS} BEGIN ${COUNT("old")} END;
CREATE TRIGGER IF NOT EXISTS answers_counted AFTER INSERT ON records WHEN new.section IN ${SECTIONS} BEGIN ${COUNT("new")} END;`;

/**
 * Changes logged after a section's base at most: the next write drops the base and the log (a
 * new catalog layout written in full would otherwise log every record).
 */
const LOGGED_MOST = 1024;

/**
 * A write to a record of `row`'s section logged, while the section has a base (as many rows as
 * the generation counts: an update counts and logs both its old and new file), `dropped` 1 where
 * the file's record may be gone (a delete, an update's old row).
 */
const LOG = (row: string, dropped: 0 | 1) => `
  INSERT INTO answer_changes (section, file, dropped) SELECT ${row}.section, ${row}.file, ${dropped} WHERE EXISTS (${BASED(row)});
  DELETE FROM answer_bases WHERE section = ${row}.section AND logged < (SELECT max(seq) FROM answer_changes) - ${LOGGED_MOST};
  DELETE FROM answer_changes WHERE section = ${row}.section AND NOT EXISTS (SELECT 1 FROM answer_bases WHERE section = ${row}.section);`;

/** Whether `row`'s section has a base: without one (a cold build), a trigger does nothing more. */
const BASED = (row: string) => `SELECT 1 FROM answer_bases WHERE section = ${row}.section`;

/** The log's triggers; `answer_changes_logged` is made last, so its presence says the rest is there. */
const LOG_TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS answer_changes_update AFTER UPDATE ON records
  WHEN (old.section IN ${SECTIONS} AND EXISTS (${BASED("old")})) OR (new.section IN ${SECTIONS} AND EXISTS (${BASED("new")}))
  BEGIN ${LOG("old", 1)} ${LOG("new", 0)} END;
CREATE TRIGGER IF NOT EXISTS answer_changes_delete AFTER DELETE ON records WHEN old.section IN ${SECTIONS} AND EXISTS (${BASED("old")})
  BEGIN ${LOG("old", 1)} END;
CREATE TRIGGER IF NOT EXISTS answer_changes_logged AFTER INSERT ON records WHEN new.section IN ${SECTIONS} AND EXISTS (${BASED("new")})
  BEGIN ${LOG("new", 0)} END;`;

/** Makes what is missing; call inside the transaction that sets the schema up. */
export function setUpAnswers(db: SqliteDb): void {
  db.exec(ANSWER_TABLES);
  if (!db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'trigger' AND name = 'answer_changes_logged'").get()) {
    db.exec(LOG_TRIGGERS);
    db.exec("DELETE FROM answer_bases; DELETE FROM answer_changes");
  }
  if (db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'trigger' AND name = 'answers_counted'").get()) return;
  db.exec(TRIGGERS);
  db.exec("DELETE FROM answers; DELETE FROM answer_bases; DELETE FROM answer_changes");
}

/** The answers of one database (see `AnswerStore`). */
export class SqliteAnswers implements AnswerStore {
  #db: SqliteDb;
  #transaction: (work: () => void) => void;
  #findFile: SqliteStatement | undefined;

  constructor(db: SqliteDb, transaction: (work: () => void) => void) {
    this.#db = db;
    this.#transaction = transaction;
  }

  generation(section: SectionKey): number {
    return Number(this.#db.prepare("SELECT n FROM generations WHERE section = ?").values(section.name)[0]?.[0] ?? 0);
  }

  load(section: SectionKey, key: string, generation: number): string | undefined {
    const row = this.#db.prepare("SELECT body FROM answers WHERE key = ? AND section = ? AND generation = ?").values(key, section.name, generation)[0];
    return typeof row?.[0] === "string" ? row[0] : undefined;
  }

  save(section: SectionKey, key: string, generation: number, body: string): boolean {
    let saved = false;
    this.#transaction(() => {
      // Made from records that changed since: not kept.
      if (this.generation(section) !== generation) return;
      // Answers of earlier generations will never be good again.
      this.#db.prepare("DELETE FROM answers WHERE section = ? AND generation <> ?").run(section.name, generation);
      this.#db.prepare("INSERT OR REPLACE INTO answers (key, section, generation, body) VALUES (?, ?, ?, ?)").run(key, section.name, generation, body);
      // The latest few (a replaced answer is the latest): a span back from now (`--since 7d`) names a new one each run.
      this.#db.prepare(`DELETE FROM answers WHERE section = ?1 AND rowid NOT IN (SELECT rowid FROM answers WHERE section = ?1 ORDER BY rowid DESC LIMIT ${KEPT_PER_SECTION})`).run(section.name);
      saved = true;
    });
    return saved;
  }

  loadBase(section: SectionKey, key: string, generation: number, most: number): AnswerBase | undefined {
    const db = this.#db;
    const base = db.prepare("SELECT generation, logged FROM answer_bases WHERE section = ? AND key = ?").values(section.name, key)[0];
    if (!base) return undefined;
    const [made, logged] = [Number(base[0]), Number(base[1])];
    // Every change counted since is logged: else (an older program's writes before the log) no base.
    const since = Number(db.prepare("SELECT count(*) FROM answer_changes WHERE section = ? AND seq > ?").values(section.name, logged)[0][0]);
    if (made + since !== generation || since > most * 2) return undefined;
    const changed = db.prepare(
      "SELECT c.file, f.path, c.dropped FROM (SELECT file, max(dropped) AS dropped FROM answer_changes WHERE section = ? AND seq > ? GROUP BY file) c LEFT JOIN files f ON f.id = c.file",
    ).values(section.name, logged).map(([file, path, dropped]) => ({ file: Number(file), path: typeof path === "string" ? path : null, dropped: Number(dropped) === 1 }));
    if (changed.length > most) return undefined;
    const body = db.prepare("SELECT body FROM answer_bases WHERE section = ? AND generation = ?").values(section.name, made)[0]?.[0];
    return body instanceof Uint8Array ? { body, changed } : undefined;
  }

  saveBase(section: SectionKey, key: string, generation: number, body: Uint8Array): boolean {
    let saved = false;
    this.#transaction(() => {
      if (this.generation(section) !== generation) return;
      const logged = Number(this.#db.prepare("SELECT coalesce(max(seq), 0) FROM answer_changes").values()[0][0]);
      this.#db.prepare("DELETE FROM answer_changes WHERE section = ?").run(section.name);
      this.#db.prepare("INSERT OR REPLACE INTO answer_bases (section, key, generation, logged, body) VALUES (?, ?, ?, ?, ?)").run(section.name, key, generation, logged, body);
      saved = true;
    });
    return saved;
  }

  fileNumber(path: string): number | undefined {
    const row = (this.#findFile ??= this.#db.prepare("SELECT id FROM files WHERE path = ?")).values(path)[0];
    return row === undefined ? undefined : Number(row[0]);
  }
}
