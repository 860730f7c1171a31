/**
 * Session ids through the SQLite catalog's index of header ids (src/catalog/header-id-index.ts)
 * against ids compared one by one (the file catalog, `PI_SESSION_CATALOG=file`): the short ids
 * `search` prints and the sessions a reference names (`info <prefix>`: unique, exact, ambiguous,
 * unknown) are the same bytes, exit codes and notes, on ids sharing long prefixes across folders;
 * warm, and after a new session, a removed one and one rewritten in place under another id. A
 * search the index answers still notes the file it skips for its header, as one that reads it does.
 * Skipped where the runtime has no SQLite.
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { run } from "../../src/cli/run.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { addSession, assistantEntry, harnessDeps, header, jsonl, NOW, userEntry, writeText } from "./_harness.ts";

const DAY = 24 * 60 * 60 * 1000;

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;

/** Ids as UUIDv7 made within a moment: long shared prefixes, across folders. */
const idOf = (p: number, s: number) => `01a232a0-4dc${s % 2}-7700-ac0a-b0d${p}${String(s).padStart(7, "0")}`;

/** 4 projects of 6 sessions each that mention "parser", a file that is not a session, and one without a usable header. */
async function corpus(agent: string): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (let p = 0; p < 4; p++) {
    for (let s = 0; s < 6; s++) {
      const id = idOf(p, s);
      const entries = [
        { ...userEntry("u0", null, `fix the parser in module ${p}.${s}`), timestamp: `2025-06-0${1 + (s % 4)}T10:00:00.000Z` },
        { ...assistantEntry("a0", "u0", "the parser is fixed"), timestamp: `2025-06-0${1 + (s % 4)}T10:01:00.000Z` },
      ];
      const path = `${agent}/sessions/--work-proj-${p}--/2025-06-0${1 + (s % 4)}T10-00-00-000Z_${id}.jsonl`;
      await writeText(nodeFileSystem, path, jsonl(header(id, `/work/proj-${p}`), ...entries));
      paths.set(id, path);
    }
  }
  await writeText(nodeFileSystem, `${agent}/sessions/--work-proj-2--/notes.jsonl`, jsonl({ hello: "world" }));
  await writeText(nodeFileSystem, `${agent}/sessions/--work-proj-2--/bad.jsonl`, jsonl({ type: "session", version: 3, timestamp: "2025-06-01T10:00:00.000Z", cwd: "/work/proj-2" }));
  return paths;
}

test(`ids through the catalog's index of header ids print and resolve as ids compared one by one (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), "pi-session-id-index-"));
  const agent = `${home}/.pi/agent`;
  const same = async (argv: string[]): Promise<string> => {
    const once = async (env: Record<string, string>) => {
      const out = { stdout: "", stderr: "" };
      const deps = harnessDeps({ fs: nodeFileSystem, env, home, processCwd: "/work/proj-1" }, out);
      const code = await run([...argv, "--agent-dir", agent], deps);
      return { code, ...out };
    };
    const indexed = await once({ XDG_CACHE_HOME: `${home}/cache-sqlite` });
    const compared = await once({ XDG_CACHE_HOME: `${home}/cache-file`, PI_SESSION_CATALOG: "file" });
    const what = argv.join(" ");
    assert.equal(indexed.stdout, compared.stdout, what);
    assert.equal(indexed.stderr, compared.stderr, what);
    assert.equal(indexed.code, compared.code, what);
    return indexed.stdout + indexed.stderr;
  };
  // References first: a search reads new sessions into the catalog (and so ends its coverage until the next listing).
  const cases = async (ids: readonly string[]) => {
    for (const id of ids) await same(["info", id.slice(0, 30)]);
    await same(["info", ids[3]]);
    assert.match(await same(["info", "01a232a0-4dc0"]), /matches \d+ sessions/);
    assert.match(await same(["info", "01a232a0-zzzz"]), /No session found/);
    await same(["search", "parser", "--all", "--limit", "100"]);
    await same(["search", "parser"]);
  };
  try {
    const paths = await corpus(agent);
    const ids = [...paths.keys()];
    // Written well before the harness's clock (NOW), but for one session written lately, so that
    // the folders are taken on trust and that session is stat'ed by the quick check.
    const old = new Date(NOW.getTime() - 10 * DAY);
    const lately = new Date(NOW.getTime() - DAY / 2);
    for (const path of paths.values()) utimesSync(path, old, path === paths.get(ids[14]) ? lately : old);
    for (const dir of new Set([...paths.values()].map((path) => dirname(path)))) utimesSync(dir, old, old);
    utimesSync(`${agent}/sessions`, old, old);
    // The listing that covers every folder, then warm.
    await same(["list", "--all"]);
    // An ambiguous prefix is told by the index's ids: no matched session's header is read to list
    // them (the adapter's reads watched in place: the SQLite catalog is for the real disk only).
    const opened: string[] = [];
    const read = nodeFileSystem.read;
    nodeFileSystem.read = (path, options) => (opened.push(path), read.call(nodeFileSystem, path, options));
    const out = { stdout: "", stderr: "" };
    try {
      const deps = harnessDeps({ fs: nodeFileSystem, env: { XDG_CACHE_HOME: `${home}/cache-sqlite` }, home, processCwd: "/work/proj-1" }, out);
      assert.equal(await run(["info", "01a232a0-4dc0", "--agent-dir", agent], deps), 2);
    } finally {
      nodeFileSystem.read = read;
    }
    assert.match(out.stderr, /matches 12 sessions/);
    // Only the files whose record holds no usable id: the one that is not a session and the one without a usable header.
    assert.deepEqual(opened.filter((path) => path.endsWith(".jsonl")).map((path) => path.slice(path.lastIndexOf("/") + 1)).sort(), ["bad.jsonl", "notes.jsonl"]);
    assert.equal(await same(["info", "01a232a0-4dc0"]), out.stderr);
    await cases(ids);
    // A new session sharing 30 characters with one, one removed, and one rewritten in place under
    // another id with its folder's mtime put back (it was written lately: a quick check stats it).
    await addSession(nodeFileSystem, `${ids[2].slice(0, 30)}new`, [userEntry("u1", null, "the parser again")], { dir: dirname(paths.get(ids[2])!), cwd: "/work/proj-0" });
    unlinkSync(paths.get(ids[9])!);
    const rewritten = paths.get(ids[14])!;
    const folder = statSync(dirname(rewritten));
    await writeText(nodeFileSystem, rewritten, jsonl(header(`${ids[15].slice(0, 31)}x`, "/work/proj-2"), userEntry("u0", null, "a parser rewritten")));
    utimesSync(dirname(rewritten), folder.atime, folder.mtime);
    utimesSync(rewritten, old, new Date(lately.getTime() + 60_000));
    const now = [...ids.filter((_, i) => i !== 9 && i !== 14), `${ids[2].slice(0, 30)}new`, `${ids[15].slice(0, 31)}x`];
    assert.match(await same(["info", ids[9]]), /No session found/);
    await cases(now);
    // Listed again: the catalog's index answers again.
    await same(["list", "--all"]);
    await cases(now);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
