/**
 * `list --search` where the SQLite catalog is current: the sessions are looked at a slice of
 * stored records at a time and only the matches are kept (src/query/scope.ts, `keptSessions`),
 * against the file catalog, which has no lookup by path and tests each session as its refresh
 * hands on the records (`refreshedSessions`, as SQLite does where cold): the same bytes, exit
 * codes and notes for searches by word, phrase and expression, with `--model`, `--named`,
 * `--since`, `--limit`, `--json`, for every project and for one; and after a session is added.
 * `--model` alone reads the usage records a slice at a time where they are current.
 * Skipped where the runtime has no SQLite.
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { run } from "../../src/cli/run.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { harnessDeps, header, jsonl, NOW, userEntry, writeText } from "./_harness.ts";
import { paid } from "./_usage-sessions.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const DAY = 24 * 60 * 60 * 1000;

const WORDS = ["parser", "cache", "timeout", "tree walk", "flaky test", "日本語"];

const CASES: string[][] = [
  ["--all", "--search", "parser"],
  ["--all", "--search", "\"tree walk\""],
  ["--all", "--search", "re:fla+ky"],
  ["--all", "--search", "cache", "--json"],
  ["--all", "--search", "parser", "--limit", "3"],
  ["--all", "--search", "parser", "--sort", "messages"],
  ["--all", "--search", "parser", "--named"],
  ["--all", "--search", "timeout", "--since", "2025-06-03"],
  ["--all", "--search", "cache", "--model", "claude"],
  ["--all", "--search", "日本語", "--ndjson"],
  ["--all", "--search", "nothing-matches-this"],
  ["--search", "parser"],
  ["--search", "proj-2"],
  // The models of each session, read a slice of stored usage records at a time where current.
  ["--all", "--model", "claude"],
  ["--all", "--model", "anthropic/claude-test", "--json"],
  ["--model", "gpt"],
];

test(`list --search keeps only its matches as the catalog's records come, and prints what a listing of every session prints (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-session-list-search-"));
  const agent = `${root}/.pi/agent`;
  try {
    const paths: string[] = [];
    const write = async (p: number, s: number) => {
      const id = `0190cccc-${p}${String(s).padStart(3, "0")}`;
      const at = `2025-06-0${1 + ((p + s) % 5)}T10:00:00.000Z`;
      const entries: object[] = [
        { ...userEntry("u1", null, `look at the ${WORDS[(p + s) % WORDS.length]} in module ${p}.${s}`), timestamp: at },
        paid("a1", "u1", at, 10, [], `the ${WORDS[(p * 2 + s) % WORDS.length]} is done`),
      ];
      if (s % 4 === 1) entries.push({ type: "session_info", id: "n1", parentId: "a1", timestamp: at, name: `named ${WORDS[s % WORDS.length]}` });
      const path = `${agent}/sessions/--work-proj-${p}--/2025-06-0${1 + ((p + s) % 5)}T10-00-00-000Z_${id}.jsonl`;
      await writeText(nodeFileSystem, path, jsonl(header(id, `/work/proj-${p}`), ...entries));
      return path;
    };
    for (let p = 0; p < 4; p++) for (let s = 0; s < 9; s++) paths.push(await write(p, s));
    // Written well before the harness's clock: the folders are then taken on trust, the catalog current by the quick check.
    const old = new Date(NOW.getTime() - 10 * DAY);
    for (const path of [...paths, ...new Set(paths.map((path) => dirname(path))), `${agent}/sessions`]) utimesSync(path, old, old);
    const once = async (argv: string[], env: Record<string, string>) => {
      const out = { stdout: "", stderr: "" };
      const deps = harnessDeps({ fs: nodeFileSystem, env, home: root, processCwd: "/work/proj-2" }, out);
      const code = await run(["list", ...argv, "--agent-dir", agent], deps);
      return { code, ...out };
    };
    let matched = 0;
    for (const round of ["cold", "warm", "one more session"]) {
      if (round === "one more session") await write(1, 42);
      for (const argv of CASES) {
        const kept = await once(argv, { XDG_CACHE_HOME: `${root}/cache-sqlite` });
        const every = await once(argv, { XDG_CACHE_HOME: `${root}/cache-file`, PI_SESSION_CATALOG: "file" });
        const what = `${round}: list ${argv.join(" ")}`;
        assert.equal(kept.stdout, every.stdout, what);
        assert.equal(kept.stderr, every.stderr, what);
        assert.equal(kept.code, every.code, what);
        if (kept.code === 0) matched++;
      }
    }
    assert.ok(matched >= 3 * (CASES.length - 3), `${matched} listings matched sessions`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
