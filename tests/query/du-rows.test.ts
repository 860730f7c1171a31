/**
 * `du` from the catalog's listing rows (SQLite) gives what it gives from every session held and
 * each file stat'ed (the catalog off): the same totals, projects, largest sessions and short ids,
 * on a generated corpus of several projects, for several limits and a project of its own.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { diskUse, type DuOptions } from "../../src/query/du.ts";
import { createQueryEnv, type QueryEnv } from "../../src/query/env.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-du-rows-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
await generateSessions({ dir: agentDir, count: 60, seed: 20261203 });
const binding = await sqliteBinding();
const withSqlite = "skip" in binding ? { skip: binding.skip } : {};

function envFor(catalog: "sqlite" | "off"): QueryEnv {
  const vars: Record<string, string> = { XDG_CACHE_HOME: join(work, `cache-${catalog}`), PI_SESSION_CATALOG: catalog };
  return createQueryEnv({ fs: detectFileSystem(), storage: { env: (name) => vars[name], home: work, processCwd: "/home/dev" }, agentDir });
}

test("du from the listing's rows equals du from every session held", withSqlite, async () => {
  const rows = envFor("sqlite");
  const held = envFor("off");
  const cases: DuOptions[] = [{}, { limit: 0 }, { limit: 3 }, { limit: 500 }, { project: "alpha" }, { project: "/nowhere" }];
  for (const options of cases) {
    const [a, b] = [await diskUse(rows, options), await diskUse(held, options)];
    assert.deepEqual(a.value, b.value, JSON.stringify(options));
    assert.deepEqual(a.largest, b.largest.map(({ path, id, cwd, name, firstMessage, bytes, modified }) => ({ path, id, cwd, name, firstMessage, bytes, modified })), JSON.stringify(options));
    // Short ids found from the stored ids nearest each equal those among every id held.
    assert.deepEqual(a.shortIds, b.shortIds, JSON.stringify(options));
  }
  const all = await diskUse(rows, { limit: 500 });
  assert.ok(all.value.projects.length >= 3 && all.value.sessionCount >= 50, "several projects");
  assert.equal(all.value.largest.length, all.value.sessionCount);
  assert.ok((await diskUse(rows, { project: "alpha" })).value.sessionCount > 0, "a project of its own");
});
