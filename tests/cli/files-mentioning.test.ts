/**
 * `files` through the SQLite catalog, which hands on only the sessions whose stored state
 * mentions the target's last name (`RefreshOptions.mentioning`), against the file catalog, which
 * hands on every session: the same bytes, exit codes and notes, cold and warm, for paths reached
 * relatively, through `~`, `@`, `..`, a session's cwd, a percent-encoded `file://` URL, names JSON
 * escapes, the home directory and its parents, and globs. Skipped where the runtime has no SQLite.
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { run } from "../../src/cli/run.ts";
import { mentionedName, mentionedNames } from "../../src/query/files.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { harnessDeps, header, jsonl, NOW, userEntry, writeText } from "./_harness.ts";

const DAY = 24 * 60 * 60 * 1000;
import { call, paid } from "./_usage-sessions.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;

/** A home whose names no session writes: a `~/…` path is the only way to it. */
const HOME = "/home/qz9";

/** One session per cwd, each touching paths the way sessions write them. */
const SESSIONS: [string, string, object[]][] = [
  ["0190aaaa-0001", "/work/proj", [
    call("read", { path: "src/parser.ts" }),
    call("edit", { path: "/work/proj/src/lexer.ts", oldText: "a", newText: "b" }),
    call("bash", { command: "cat ~/notes/todo.md && ls ../other" }),
    call("read", { path: "@docs/guide.md" }),
    call("read", { path: "file:///work/proj/my%20file.ts" }),
    call("read", { path: "../other/x.ts" }),
  ]],
  // Outside the home directory, reaching into it: "qz9" is written nowhere in this session.
  ["0190aaaa-0002", "/work/proj/sub/deep", [call("read", { path: "y.ts" }), call("ls", { path: ".." }), call("read", { path: "~/z.txt" })]],
  ["0190aaaa-0003", HOME, [call("read", { path: "~/z.txt" }), call("write", { path: "notes/todo.md", content: "x" })]],
  ["0190aaaa-0004", "/srv/app", [call("read", { path: 'we"ird.ts' }), call("read", { path: "src/parser.ts" }), call("grep", { path: "/work/proj/src" })]],
  // Two more in the first project whose uses tie on time with the first's: the order among them is the listing's.
  ["0190aaaa-0005", "/work/proj", [call("read", { path: "src/parser.ts" })]],
  ["0190aaaa-0006", "/work/proj", [call("edit", { path: "src/parser.ts", oldText: "a", newText: "b" })]],
];
/** Sessions that touch none of the targets: the few that do are then found without a walk. */
const FILLER: [string, string, object[]][] = Array.from({ length: 24 }, (_, i) => [`0190bbbb-${String(i).padStart(4, "0")}`, `/srv/fill-${i % 3}`, [call("read", { path: `notes/n${i}.md` })]]);

const TARGETS = [
  "/work/proj/src/parser.ts",
  // Reached through the session's cwd alone: its folder's name is written nowhere else.
  "/work/proj/sub/deep/y.ts",
  "/work/proj/src",
  "/work/proj",
  "/work/proj/sub",
  "/work/proj/my file.ts",
  "/work/proj/docs/guide.md",
  `${HOME}/notes/todo.md`,
  `${HOME}/z.txt`,
  HOME,
  "/home",
  "/",
  "/work/other/x.ts",
  "/work/other",
  '/srv/app/we"ird.ts',
  "/srv/app/src/parser.ts",
  "/work/**/*.ts",
  "/nowhere.txt",
  // A name most sessions mention, in a folder a third of them mention.
  "/srv/fill-0/notes",
  `${HOME}/notes`,
  // Names most sessions mention, with no folder to tell them apart: the walk hands every session on.
  "/srv",
  "/srv/fill-1",
];

test("mentionedNames() adds the target's folder's name, but where the home directory is in that folder", () => {
  assert.deepEqual(mentionedNames("/work/proj/src/parser.ts", HOME), ["parser.ts", "src"]);
  assert.deepEqual(mentionedNames("/work/proj", HOME), ["proj", "work"]);
  assert.deepEqual(mentionedNames("/work", HOME), ["work"]);
  // `~/z.txt` reaches it without writing "qz9"; `~/notes/todo.md` writes "notes".
  assert.deepEqual(mentionedNames(`${HOME}/z.txt`, HOME), ["z.txt"]);
  assert.deepEqual(mentionedNames(`${HOME}/notes/todo.md`, HOME), ["todo.md", "notes"]);
  assert.deepEqual(mentionedNames('/srv/we"ird/x.ts', HOME), ["x.ts"]);
  assert.equal(mentionedNames(HOME, HOME), undefined);
});

test("mentionedName() gives the target's last name, and nothing where a session could reach it without writing that name", () => {
  assert.equal(mentionedName("/work/proj/src/parser.ts", HOME), "parser.ts");
  assert.equal(mentionedName("/work/proj", HOME), "proj");
  assert.equal(mentionedName(HOME, HOME), undefined);
  assert.equal(mentionedName("/home", HOME), undefined);
  assert.equal(mentionedName("/", HOME), undefined);
  assert.equal(mentionedName('/srv/app/we"ird.ts', HOME), undefined);
  assert.equal(mentionedName("/srv/app/a\\b", HOME), "b");
  assert.equal(mentionedName("/srv/tab\there", HOME), undefined);
  assert.equal(mentionedName(`${HOME}/notes`, HOME), "notes");
});

test(`files through the catalog's mention test prints what files over every session prints (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 300_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-session-files-mentioning-"));
  const agent = `${root}/agent`;
  try {
    const write = async (i: number, [id, cwd, calls]: (typeof SESSIONS)[number]) => {
      const day = i % 4 + 1;
      const at = `2025-06-0${day}T10:00:00.000Z`;
      const entries = [{ ...userEntry("u1", null, "look at the files"), timestamp: at }, paid("a1", "u1", at, 10, calls)];
      const path = `${agent}/sessions/--${cwd.replaceAll("/", "-")}--/2025-06-0${day}T10-00-00-000Z_${id}.jsonl`;
      await writeText(nodeFileSystem, path, jsonl(header(id, cwd), ...entries));
      return path;
    };
    const paths = [];
    for (const [i, session] of [...SESSIONS.slice(0, -1), ...FILLER].entries()) paths.push(await write(i, session));
    // Written well before the harness's clock: folders and sessions are then taken on trust by the quick check.
    const old = new Date(NOW.getTime() - 10 * DAY);
    for (const path of [...paths, ...paths.map((path) => dirname(path)), `${agent}/sessions`]) utimesSync(path, old, old);
    const once = async (argv: string[], env: Record<string, string>) => {
      const out = { stdout: "", stderr: "" };
      const deps = harnessDeps({ fs: nodeFileSystem, env, home: HOME, processCwd: "/work/proj" }, out);
      const code = await run([...argv, "--agent-dir", agent], deps);
      return { code, ...out };
    };
    let found = 0;
    // The first run reads every session, the next ones hand on stored records; a session is added before the last.
    for (const round of ["cold", "warm", "one more session"]) {
      if (round === "one more session") await write(SESSIONS.length + FILLER.length, SESSIONS[SESSIONS.length - 1]);
      for (const target of TARGETS) {
        for (const extra of [[], ["--json"]]) {
          const argv = ["files", target, "--all", ...extra];
          const mentioned = await once(argv, { XDG_CACHE_HOME: `${root}/cache-sqlite` });
          const every = await once(argv, { XDG_CACHE_HOME: `${root}/cache-file`, PI_SESSION_CATALOG: "file" });
          const what = `${round}: ${argv.join(" ")}`;
          assert.equal(mentioned.stdout, every.stdout, what);
          assert.equal(mentioned.stderr, every.stderr, what);
          assert.equal(mentioned.code, every.code, what);
          if (mentioned.code === 0) found++;
        }
      }
    }
    assert.ok(found >= 3 * 2 * (TARGETS.length - 2), `${found} runs found sessions`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
