/**
 * A catalog record that parses but has the wrong shape (`state` 'null', a null payload) counts as
 * missing: `list`, `search` and `files` answer as without a catalog, on every run, and the record
 * is replaced by the first run. Both stores: the file store through the CLI, SQLite through the
 * catalog (this runtime's binding; skipped where there is none).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { recordState } from "../../src/catalog/store.ts";
import { filesDigest } from "../../src/core/digest/files-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { rowCount } from "../../src/core/digest/usage-state.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { addSession, HOME, memoryFs, readText, runCli, writeText } from "../cli/_harness.ts";
import { sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const CACHE = `${HOME}/.cache/pi-session`;

/** Each record line of a file-store section with its state (and final) replaced by `state`. */
function spoil(text: string, state: unknown): string {
  const [format, ...lines] = text.trimEnd().split("\n");
  return [format, ...lines.map((line) => {
    const row = JSON.parse(line);
    row[8] = state;
    return JSON.stringify(row.slice(0, 9));
  })].join("\n") + "\n";
}

for (const [what, state] of [["state 'null'", null], ["a null payload", { header: null, rejected: false, data: null }], ["a payload of another shape", { header: null, rejected: false, data: { refs: 5, messageCount: "x" } }]] as const) {
  test(`list, search and files answer as without a catalog when every record has ${what}, and the records are replaced`, async () => {
    const fs = memoryFs();
    await addSession(fs, "bad-1", [], { text: sessionText("bad1", 3) });
    await addSession(fs, "bad-2", [], { text: sessionText("bad2", 2) });
    const commands = [["list"], ["search", "question"], ["files", "src/file1.ts"]];
    const expected = [];
    for (const argv of commands) expected.push(await runCli(argv, { fs, env: { PI_SESSION_CATALOG: "off" } }));
    for (const argv of commands) assert.equal((await runCli(argv, { fs })).code, expected[commands.indexOf(argv)].code);
    const sections = (await fs.list(CACHE)).filter((e) => e.name.endsWith(".jsonl")).map((e) => e.name);
    assert.ok(sections.length >= 2, `sections: ${sections.join(", ")}`);
    for (const name of sections) await writeText(fs, `${CACHE}/${name}`, spoil(await readText(fs, `${CACHE}/${name}`), state));
    for (let round = 0; round < 2; round++) {
      for (const [i, argv] of commands.entries()) {
        const run = await runCli(argv, { fs });
        assert.equal(run.code, expected[i].code, `${argv.join(" ")} (round ${round}): ${run.stderr}`);
        assert.equal(run.stdout, expected[i].stdout, `${argv.join(" ")} (round ${round})`);
        assert.doesNotMatch(run.stderr, /internal error|TypeError/);
      }
    }
    // The first run after the damage replaced the records: none has the bad state any more.
    for (const name of sections) assert.doesNotMatch(await readText(fs, `${CACHE}/${name}`), /,null\]|"data":null|"refs":5/);
  });
}

const binding = await sqliteBinding();

test(`SQLite: records with state 'null' or a null payload count as missing, are read again and replaced (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip: "skip" in binding ? binding.skip : false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-badrecords-"));
  try {
    const fs = detectFileSystem();
    const files = [join(dir, "a.jsonl"), join(dir, "b.jsonl"), join(dir, "c.jsonl")];
    for (const [i, path] of files.entries()) await fs.writeAtomic(path, utf8(sessionText(`s${i}`, 4)));
    const db = join(dir, "catalog.sqlite");
    const kinds = [listingDigest, usageDigest, filesDigest];
    const refresh = async () => {
      const catalog = new Catalog(fs, { store: await openSqliteStore(db) });
      try {
        return await catalog.refresh(kinds, files);
      } finally {
        catalog.close();
      }
    };
    await refresh();
    const raw = "Bun" in globalThis ? await openBunSqlite(db) : await openNodeSqlite(db);
    raw.prepare("UPDATE records SET state = 'null' WHERE file = (SELECT id FROM files WHERE path = ?)").run(files[0]);
    raw.prepare(`UPDATE records SET state = '{"header":null,"rejected":false,"data":null}' WHERE file = (SELECT id FROM files WHERE path = ?)`).run(files[1]);
    raw.prepare(`UPDATE records SET final = '{"header":null,"rejected":false}' WHERE file = (SELECT id FROM files WHERE path = ?)`).run(files[2]);
    raw.close();
    const view = await refresh();
    assert.equal(view.counts.read, 3);
    assert.equal([...view.records(usageDigest).values()].reduce((n, r) => n + rowCount(recordState(r).data), 0), 12);
    assert.equal(view.records(listingDigest).get(files[0])?.state.data.messageCount, 8);
    assert.equal((await refresh()).counts.unchanged, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
