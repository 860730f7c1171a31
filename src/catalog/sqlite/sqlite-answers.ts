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
import type { AnswerStore, SectionKey } from "../store.ts";
import type { SqliteDb } from "./sqlite-db.ts";

/** Answers kept per section at most. */
const KEPT_PER_SECTION = 16;

/** The tables a schema change drops. */
export const ANSWER_TABLE_NAMES = ["answers", "generations"];

/** `section` is the section's name: its version is in the answer's key, and a new version writes new records. */
const ANSWER_TABLES = `
CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, section TEXT NOT NULL, generation INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS generations (section TEXT PRIMARY KEY, n INTEGER NOT NULL);`;

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

/** Makes what is missing; call inside the transaction that sets the schema up. */
export function setUpAnswers(db: SqliteDb): void {
  db.exec(ANSWER_TABLES);
  if (db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'trigger' AND name = 'answers_counted'").get()) return;
  db.exec(TRIGGERS);
  db.exec("DELETE FROM answers");
}

/** The answers of one database (see `AnswerStore`). */
export class SqliteAnswers implements AnswerStore {
  #db: SqliteDb;
  #transaction: (work: () => void) => void;

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
}
