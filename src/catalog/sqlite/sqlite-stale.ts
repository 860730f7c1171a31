/**
 * Dropping a section's records of other versions before a save, once rather than at every save:
 * finding them reads every record row of the section (the version is not in its key), and a cold
 * build saves in batches of 64 files, so at 25,000 sessions the 390 saves read the table 390
 * times (1.3 million page reads of a 2 MB page cache, about half the build's time in the kernel).
 * @module
 */
import { dataVersion } from "./sqlite-coverage.ts";
import type { SqliteDb } from "./sqlite-db.ts";

/** Per connection: the sections known to hold records of one version only, and since when. */
export class StaleVersions {
  /** Section name → the version it holds alone, and `data_version` when that was made so. */
  #clean = new Map<string, { version: number; data: number }>();

  /**
   * Inside a write transaction: deletes the records of `section.name` whose version is not
   * `section.version`, unless this connection did so since and no other connection has committed
   * since (`data_version`: an older pi-session may write records of its version). Gives the count.
   */
  drop(db: SqliteDb, section: { name: string; version: number }): number {
    const data = dataVersion(db);
    const clean = this.#clean.get(section.name);
    if (clean?.version === section.version && clean.data === data) return 0;
    const stale = db.prepare("DELETE FROM records WHERE section = ? AND version <> ?").run(section.name, section.version);
    this.#clean.set(section.name, { version: section.version, data });
    return Number(stale.changes);
  }

  /** Forgets what is known (the records were cleared, or a transaction rolled back). */
  forget(): void {
    this.#clean.clear();
  }
}
