/**
 * Makes a SQLite catalog's last full checks ten minutes old, as a user finds them coming back to
 * it: the next run of a read-only command puts its full check off (src/cli/check-later.ts).
 * Runs under Bun: `bun scripts/bench/stale-full-checks.ts <catalog-v1.sqlite>`.
 * @module
 */
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";

const path = process.argv[2];
if (!path) throw new Error("usage: bun scripts/bench/stale-full-checks.ts <catalog-v1.sqlite>");
const db = await openBunSqlite(path);
try {
  db.exec("PRAGMA busy_timeout = 10000");
  db.prepare("UPDATE full_checks SET at = ?").run(Date.now() - 10 * 60_000);
} finally {
  db.close();
}
