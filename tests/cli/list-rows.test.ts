/**
 * `list` read from the SQLite catalog's listing rows (src/query/list-rows.ts) against `list` made
 * from the records (the file catalog, `PI_SESSION_CATALOG=file`): the same bytes on stdout, the
 * same notes and exit codes, for every output and option the rows serve, on a corpus with forks,
 * names, emoji and CJK titles, control characters, ties, ids sharing long prefixes and sessions in
 * many folders; cold, warm, after appends, removals and new sessions, and when the rows are gone.
 * Skipped where the runtime has no SQLite (then both are the file catalog).
 * @module
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, unlinkSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { run } from "../../src/cli/run.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { addSession, assistantEntry, harnessDeps, header, jsonl, NOW, userEntry, writeText } from "./_harness.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;

/** A corpus on disk under `home`: 6 projects, ~40 sessions, and what makes ordering and layout hard. */
async function corpus(home: string): Promise<string[]> {
  const agent = `${home}/.pi/agent`;
  const fs = nodeFileSystem;
  const paths: string[] = [];
  const titles = ["fix the parser 🚀 now", "日本語のテスト session", "naïve café ünïcode", "tabs\tand\u001b[31m escapes", "a".repeat(150) + " long", "👩‍👩‍👧 family emoji title"];
  for (let p = 0; p < 6; p++) {
    const cwd = `/work/proj-${p}${p === 3 ? "/deep/nested/folder/with/a/long/name" : ""}`;
    for (let s = 0; s < 7; s++) {
      // Ids that share long prefixes (as UUIDv7 made in one second do), and some that tie on time.
      const id = `01a232a0-4dc${p}-7700-ac0a-b0d${s % 3}${String(s).padStart(7, "0")}`;
      const at = (minute: number) => new Date(Date.UTC(2025, 5, 1 + (s % 4), 10, minute)).toISOString();
      const entries: object[] = [];
      for (let m = 0; m < (s % 5); m++) {
        const text = `${titles[(p + s + m) % titles.length]} ${m}`;
        entries.push({ ...userEntry(`u${m}`, m ? `a${m - 1}` : null, text), timestamp: at(m) });
        entries.push({ ...assistantEntry(`a${m}`, `u${m}`, "ok"), timestamp: at(m) });
      }
      if (s === 2) entries.push({ type: "session_info", id: "n1", parentId: null, timestamp: at(9), name: `named ${titles[p]}` });
      const extra = s === 4 ? { parentSession: paths[paths.length - 1] } : {};
      const dir = `${agent}/sessions/--work-proj-${p}--`;
      const path = `${dir}/2025-06-0${1 + (s % 4)}T10-00-00-000Z_${id}.jsonl`;
      await writeText(fs, path, jsonl(header(id, cwd, extra), ...entries));
      paths.push(path);
    }
  }
  // A clone: the same entries as another session, under another id (ties on every date).
  const cloned = `${agent}/sessions/--work-proj-1--/2025-06-01T10-00-00-000Z_01a232a0-4dc1-7700-ac0a-b0d2clone00.jsonl`;
  await writeText(fs, cloned, jsonl(header("01a232a0-4dc1-7700-ac0a-b0d2clone00", "/work/proj-1"), userEntry("u0", null, "fix the parser 🚀 now 0")));
  paths.push(cloned);
  // Not sessions: a file whose first line is not a header, and one with a header it cannot use.
  await writeText(fs, `${agent}/sessions/--work-proj-2--/notes.jsonl`, jsonl({ hello: "world" }));
  await writeText(fs, `${agent}/sessions/--work-proj-2--/bad.jsonl`, jsonl({ type: "session", version: 3, timestamp: "2025-06-01T10:00:00.000Z", cwd: "/work/proj-2" }));
  await addSession(fs, "01a232a0-ffff-7700-empty", [], { dir: `${agent}/sessions/--work-proj-5--`, cwd: "/work/proj-5" });
  return paths;
}

interface Setup {
  home: string;
  rowsCache: string;
  fileCache: string;
}

/** Runs `argv` through the rows (SQLite) and through the records (file catalog), and checks that both print the same. */
async function same(setup: Setup, argv: string[], options: { columns?: number; cwd?: string } = {}): Promise<string> {
  const once = async (env: Record<string, string>) => {
    const out = { stdout: "", stderr: "" };
    const deps = harnessDeps({ fs: nodeFileSystem, env, home: setup.home, processCwd: options.cwd ?? "/work/proj-1", stdoutIsTTY: options.columns !== undefined }, out);
    if (options.columns !== undefined) deps.columns = options.columns;
    const code = await run([...argv, "--agent-dir", `${setup.home}/.pi/agent`], deps);
    return { code, ...out };
  };
  const rows = await once({ XDG_CACHE_HOME: setup.rowsCache });
  const records = await once({ XDG_CACHE_HOME: setup.fileCache, PI_SESSION_CATALOG: "file" });
  const what = `${argv.join(" ")}${options.columns ? ` (${options.columns} columns)` : ""}`;
  assert.equal(rows.stdout, records.stdout, what);
  assert.equal(rows.stderr, records.stderr, what);
  assert.equal(rows.code, records.code, what);
  return rows.stdout;
}

const CASES: [string[], { columns?: number; cwd?: string }?][] = [
  [["list", "--all"]],
  [["list", "--all"], { columns: 200 }],
  [["list", "--all"], { columns: 90 }],
  [["list", "--all"], { columns: 30 }],
  [["list", "--all", "--json"]],
  [["list", "--all", "--ndjson"]],
  [["list", "--all", "--sort", "messages"]],
  [["list", "--all", "--named"]],
  [["list", "--all", "--named", "--json"]],
  [["list", "--all", "--limit", "5"], { columns: 80 }],
  [["list", "--all", "--since", "2025-06-03"]],
  [["list", "--all", "--until", "2025-06-02", "--json"]],
  [["list", "--all", "--since", "2030-01-01"]],
  [["list"]],
  [["list"], { columns: 60 }],
  [["list", "--json"]],
  [["list", "--ndjson", "--sort", "messages"]],
  [["list"], { cwd: "/work/nowhere" }],
  [["list", "--json"], { cwd: "/work/nowhere" }],
];

async function everyCase(setup: Setup): Promise<void> {
  for (const [argv, options] of CASES) await same(setup, argv, options);
}

test(`list from listing rows prints what list from records prints: every output, option and width, cold, warm and after changes (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  try {
    const setup = { home, rowsCache: `${home}/cache-rows`, fileCache: `${home}/cache-file` };
    const paths = await corpus(home);
    // Cold, then warm (the quick check: no file stat'ed).
    await everyCase(setup);
    const warm = await same(setup, ["list", "--all", "--json"]);
    assert.equal(JSON.parse(warm).length, 44);
    await everyCase(setup);
    // An append that leaves its folder alone, a removed session, and a new one in a new folder.
    appendFileSync(paths[3], jsonl({ ...userEntry("late", null, "a later question 🚀"), timestamp: "2025-06-09T10:00:00.000Z" }));
    utimesSync(paths[3], new Date(), new Date());
    unlinkSync(paths[10]);
    await addSession(nodeFileSystem, "01a232a0-4dc9-7700-new", [userEntry("u1", null, "brand new")], { dir: `${home}/.pi/agent/sessions/--work-proj-9--`, cwd: "/work/proj-9" });
    await everyCase(setup);
    const after = JSON.parse(await same(setup, ["list", "--all", "--json"]));
    assert.equal(after.length, 44);
    assert.ok(after.some((s: { firstMessage: string }) => s.firstMessage === "brand new"));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test(`list --all of many folders orders sessions of one time as the records do, however the rows were made (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  try {
    const setup = { home, rowsCache: `${home}/cache-rows`, fileCache: `${home}/cache-file` };
    // 12 folders, listed in an order that is not the paths' order; most sessions share their time
    // with others, in other folders and in their own.
    const write = async (p: number, s: number) => {
      const folder = `${home}/.pi/agent/sessions/--work-${String.fromCharCode(108 - p)}-${p}--`;
      const id = `01a232a0-4dc${(p * 4 + s).toString(16).padStart(2, "0")}-7700-tie`;
      const at = new Date(Date.UTC(2025, 5, 1, 10, s % 2, p % 3)).toISOString();
      const path = `${folder}/2025-06-01T10-00-0${s}-000Z_${id}.jsonl`;
      rmSync(path, { force: true });
      await writeText(nodeFileSystem, path, jsonl(header(id, `/work/${p}`), { ...userEntry("u0", null, ""), timestamp: at, message: { role: "user", content: `question ${p}.${s}`, timestamp: Date.parse(at) } }));
    };
    for (let p = 0; p < 12; p++) for (let s = 0; s < 4; s++) await write(p, s);
    const argvs = [["list", "--all"], ["list", "--all", "--json"], ["list", "--all", "--ndjson"]];
    for (const argv of argvs) await same(setup, argv);
    // Rows made again in another order (a table or index keeps rows of one time in the order they came).
    for (const p of [5, 0, 11, 2, 7]) for (let s = 3; s >= 0; s--) await write(p, s);
    for (const argv of argvs) await same(setup, argv);
    assert.equal(JSON.parse(await same(setup, ["list", "--all", "--json"])).length, 48);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test(`list makes the listing rows anew from the records when they are gone (a catalog made before rows) (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  try {
    const setup = { home, rowsCache: `${home}/cache-rows`, fileCache: `${home}/cache-file` };
    await corpus(home);
    const before = await same(setup, ["list", "--all"]);
    const file = `${setup.rowsCache}/pi-session/catalog-v1.sqlite`;
    const open = () => ("Bun" in globalThis ? openBunSqlite(file) : openNodeSqlite(file));
    const probe = await open();
    // The rows were made (and read: a session of every project, the two files that are not sessions too).
    assert.equal(Number(probe.prepare("SELECT count(*) AS n FROM list_rows").get()?.n), 46);
    probe.close();
    // What a catalog of the version before rows has: the records, and no rows table.
    const db = await open();
    db.exec("DROP TABLE list_rows; DROP TABLE list_dirty; PRAGMA application_id = 0;");
    db.close();
    assert.equal(await same(setup, ["list", "--all"]), before);
    // Records written by a writer that knows no rows (an older version): their rows are made anew.
    const again = await open();
    again.exec("UPDATE list_rows SET first = 'stale'; UPDATE records SET lines = lines WHERE section = 'listing'");
    again.close();
    assert.equal(await same(setup, ["list", "--all"]), before);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test(`list --all lays out the age column from the ages there are, not from the range between them (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const base = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  try {
    const minute = 60_000;
    const day = 1440 * minute;
    // Ages on either side of where their text changes width, a corpus of each: "9m" and "2h"
    // (none of "10m".."59m" between), "59m" and "1h", a day off 10 months, and the widest ("12mo")
    // neither the oldest nor the newest.
    const sets = [[9 * minute, 120 * minute], [59 * minute, 60 * minute], [299 * day, 300 * day], [30_000, 6 * day, 29 * day, 364 * day, 3650 * day]];
    for (const [k, ages] of sets.entries()) {
      const home = `${base}/${k}`;
      const setup = { home, rowsCache: `${home}/cache-rows`, fileCache: `${home}/cache-file` };
      for (const [n, age] of ages.entries()) {
        const id = `01a232a0-${String(n).padStart(4, "0")}-7700-age`;
        const at = new Date(NOW.getTime() - age).toISOString();
        const path = `${home}/.pi/agent/sessions/--work-age--/2025-06-01T10-00-00-000Z_${id}.jsonl`;
        await writeText(nodeFileSystem, path, jsonl(header(id, "/work/age"), { ...userEntry("u0", null, ""), timestamp: at, message: { role: "user", content: "a question", timestamp: Date.parse(at) } }));
      }
      const table = await same(setup, ["list", "--all"]);
      // The widest age is 2 cells ("9m", "2h"): no 3-cell age pads them.
      if (k === 0) assert.match(table, /^9m {2}/m);
      if (k === 3) assert.match(table, /^ {2}6d {2}/m);
      await same(setup, ["list", "--all"], { columns: 60 });
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test(`list --all into a pipe writes its table as bytes, the same as from the records: titles with controls, bidi marks, a last character past ASCII or a space, names empty (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  try {
    const agent = `${home}/.pi/agent`;
    const titles = ["plain ascii", "ends in space ", "ends in ideographic space\u3000", "ends past ASCII é", "ends in emoji 🚀", "new\nline", "c1 \u0085 next", "bidi \u202e mark", "isolate \u2068 mark", "del \u007f char", "  leading and trailing  ", "x"];
    for (const [k, title] of titles.entries()) {
      const id = `01a232b0-0000-7700-0000-${String(k).padStart(12, "0")}`;
      const entries: object[] = [{ ...userEntry("u0", null, title), timestamp: new Date(Date.UTC(2025, 5, 1, 10, k)).toISOString() }];
      if (k === 11) entries.push({ type: "session_info", id: "n1", parentId: null, timestamp: new Date(Date.UTC(2025, 5, 1, 11)).toISOString(), name: "" });
      await writeText(nodeFileSystem, `${agent}/sessions/--work-p${k % 3}--/2025-06-01T10-00-00-000Z_${id}.jsonl`, jsonl(header(id, `/work/p${k % 3}`), ...entries));
    }
    const once = async (env: Record<string, string>, bytes: boolean) => {
      const out = { stdout: "", stderr: "" };
      const deps = harnessDeps({ fs: nodeFileSystem, env, home, processCwd: "/work/p1" }, out);
      const written: Uint8Array[] = [];
      if (bytes) deps.stdoutBytes = (piece) => void written.push(piece.slice());
      const code = await run(["list", "--all", "--agent-dir", agent], deps);
      return { code, stdout: out.stdout + new TextDecoder().decode(Buffer.concat(written)), text: out.stdout };
    };
    const records = await once({ XDG_CACHE_HOME: `${home}/cache-file`, PI_SESSION_CATALOG: "file" }, false);
    for (const run of ["cold", "warm"]) {
      const rows = await once({ XDG_CACHE_HOME: `${home}/cache-rows` }, true);
      assert.equal(rows.stdout, records.stdout, run);
      assert.equal(rows.text, "", `${run}: every line written as bytes`);
      assert.equal(rows.code, 0);
    }
    assert.equal(records.stdout.split("\n").length, titles.length + 1);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
