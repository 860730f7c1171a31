/**
 * The interactive commands in-process, keys scripted: `pick` prints only the chosen path,
 * renames and deletes; `tree -i` labels and runs its menu actions; `fork` without `--at`
 * forks before the chosen message; without a terminal each says so.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { typing } from "../../../src/cli/interactive/keys.ts";
import { run } from "../../../src/cli/run.ts";
import { CliContext } from "../../../src/cli/context.ts";
import { knownSessions, pickProgram } from "../../../src/cli/interactive/pick/program.ts";
import { withCatalog } from "../../../src/query/scope.ts";
import type { PickState } from "../../../src/cli/interactive/pick/state.ts";
import type { Apply } from "../../../src/cli/interactive/prompt.ts";
import { addSession, assistantEntry, type CliRun, harnessDeps, type HarnessOptions, memoryFs, readText, runCli, userEntry } from "../_harness.ts";
import { scriptedTerminal } from "./_scripted-terminal.ts";

async function runKeys(argv: string[], keys: Parameters<typeof scriptedTerminal>[0], options: HarnessOptions = {}): Promise<CliRun> {
  const out = { stdout: "", stderr: "" };
  const deps = { ...harnessDeps({ stdinIsTTY: true, stderrIsTTY: true, ...options }, out), terminal: scriptedTerminal(keys) };
  return { code: await run(argv, deps), ...out };
}

/** Two sessions here, one in another project. */
async function setup() {
  const fs = memoryFs();
  const here = await addSession(fs, "aaaa1111-0000", [userEntry("u1", null, "fix the login"), assistantEntry("a1", "u1", "done")]);
  const other = await addSession(fs, "bbbb2222-0000", [userEntry("u1", null, "cart totals")]);
  const away = await addSession(fs, "cccc3333-0000", [userEntry("u1", null, "elsewhere")], { cwd: "/work/other" });
  return { fs, here, other, away };
}

const lastLine = (text: string) => JSON.parse(text.trimEnd().split("\n").at(-1)!);

test("pick prints only the chosen path; --print id the id; Escape exits 130 with no output", async () => {
  const { fs, other } = await setup();
  const r = await runKeys(["pick"], [...typing("bbbb"), "enter"], { fs });
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, other + "\n", ""]);
  const id = await runKeys(["pick", "--print", "id"], ["down", "enter"], { fs });
  assert.equal(id.stdout, "bbbb2222-0000\n");
  const cancelled = await runKeys(["pick"], ["escape"], { fs });
  assert.deepEqual([cancelled.code, cancelled.stdout, cancelled.stderr], [130, "", ""]);
});

test("pick Tab shows every project; --all starts there", async () => {
  const { fs, away } = await setup();
  assert.equal((await runKeys(["pick"], ["tab", ...typing("elsewhere"), "enter"], { fs })).stdout, away + "\n");
  assert.equal((await runKeys(["pick", "--all"], [...typing("cccc"), "enter"], { fs })).stdout, away + "\n");
});

test("pick Ctrl+R appends a session_info entry after the file's last entry", async () => {
  const { fs, here } = await setup();
  const r = await runKeys(["pick"], [...typing("aaaa"), "ctrl+r", ...typing("Login fix"), "enter", "escape"], { fs });
  assert.equal(r.code, 130);
  const { id: _id, ...entry } = lastLine(await readText(fs, here));
  assert.deepEqual(entry, { type: "session_info", parentId: "a1", timestamp: "2026-01-02T03:04:05.000Z", name: "Login fix" });
});

test("pick Ctrl+D moves the session to the trash after Enter confirms", async () => {
  const { fs, here } = await setup();
  const terminal = scriptedTerminal([...typing("aaaa"), "ctrl+d", "enter", "escape"]);
  const out = { stdout: "", stderr: "" };
  const deps = { ...harnessDeps({ fs, env: { XDG_DATA_HOME: "/data" } }, out), terminal };
  assert.equal(await run(["pick"], deps), 130);
  assert.equal(await fs.stat(here), null);
  const name = here.split("/").at(-1)!;
  assert.notEqual(await fs.stat(`/data/Trash/files/${name}`), null);
  assert.match(terminal.frames.at(-2)!.join("\n"), /Session moved to \/data\/Trash\/files\//);
});

test("without a terminal pick exits 2, tree -i prints the tree, fork asks for --at", async () => {
  const { fs } = await setup();
  const out = { stdout: "", stderr: "" };
  assert.equal(await run(["pick"], harnessDeps({ fs }, out)), 2);
  assert.match(out.stderr, /pick needs a terminal: stdin and stderr must both be one\nhint: Use `pi-session list`/);
  const tree = { stdout: "", stderr: "" };
  assert.equal(await run(["tree", "aaaa", "-i"], harnessDeps({ fs }, tree)), 0);
  assert.equal(tree.stdout, "u1  • user: fix the login\na1  • assistant: done\n(2 entries)\n");
  assert.match(tree.stderr, /tree -i needs a terminal/);
  const fork = { stdout: "", stderr: "" };
  assert.equal(await run(["fork", "aaaa"], harnessDeps({ fs }, fork)), 2);
  assert.match(fork.stderr, /Choose an entry with --at or --before \(interactive selection needs a terminal\)/);
});

test("tree -i: Shift+L appends a label entry; the menu prints an id, forks, clones and shows the context", async () => {
  const { fs, here } = await setup();
  const label = await runKeys(["tree", "aaaa", "-i"], ["up", "L", ...typing("start"), "enter", "escape"], { fs });
  assert.deepEqual([label.code, label.stdout], [130, ""]);
  const entry = lastLine(await readText(fs, here));
  assert.deepEqual([entry.type, entry.targetId, entry.label, entry.parentId], ["label", "u1", "start", "a1"]);
  const id = await runKeys(["tree", "aaaa", "-i"], ["enter", "down", "down", "down", "enter"], { fs });
  assert.deepEqual([id.code, id.stdout], [0, "a1\n"]);
  const fork = await runKeys(["tree", "aaaa", "-i"], ["enter", "down", "enter"], { fs });
  assert.equal(fork.code, 0);
  const forked = fork.stdout.trim();
  assert.deepEqual(JSON.parse((await readText(fs, forked)).split("\n")[0]).parentSession, here);
  const clone = await runKeys(["tree", "aaaa", "-i"], ["up", "enter", "down", "down", "enter"], { fs });
  assert.equal(clone.code, 0);
  assert.deepEqual((await readText(fs, clone.stdout.trim())).trimEnd().split("\n").slice(1).map((l) => JSON.parse(l).id).filter((i) => i === "u1" || i === "a1"), ["u1"]);
  const context = await runKeys(["tree", "aaaa", "-i"], ["enter", "enter"], { fs });
  assert.equal(context.stdout, "--- user ---\nfix the login\n\n--- assistant ---\ndone\n");
});

test("tree -i fork on the first user message has nothing to fork (exit 1)", async () => {
  const { fs } = await setup();
  const first = await runKeys(["tree", "aaaa", "-i"], ["up", "enter", "down", "enter"], { fs });
  assert.equal(first.code, 1);
  assert.match(first.stderr, /Nothing to fork: no entry comes before this message/);
});

test("fork without --at on a terminal: the newest user message is preselected; the fork ends just before it", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "dddd4444-0000", [
    userEntry("u1", null, "first question"),
    assistantEntry("a1", "u1", "answer"),
    userEntry("u2", "a1", "second question"),
    assistantEntry("a2", "u2", "answer two"),
  ]);
  const r = await runKeys(["fork", "dddd"], ["enter"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "Message to send again:\nsecond question\n");
  const lines = (await readText(fs, r.stdout.trim())).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual([lines[0].parentSession, lines.slice(1).map((e) => e.id)], [path, ["u1", "a1"]]);
  // The same choice spelled out: fork --before gives the same entries and the same message.
  const before = await runCli(["fork", "dddd", "--before", "u2"], { fs });
  assert.equal(before.code, 0, before.stderr);
  assert.equal(before.stderr, r.stderr);
  const sameLines = (await readText(fs, before.stdout.trim())).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(sameLines.slice(1), lines.slice(1));
  assert.equal((await runKeys(["fork", "dddd"], ["escape"], { fs })).code, 130);
  const empty = await addSession(fs, "eeee5555-0000", [assistantEntry("a1", null, "hello")]);
  const none = await runKeys(["fork", empty], [], { fs });
  assert.deepEqual([none.code, none.stderr], [1, "No messages to fork from\n"]);
});

test("pick shows the catalog's rows at once, then corrects them from the files (a deleted session goes)", async () => {
  const { fs, here, other } = await setup();
  const out = { stdout: "", stderr: "" };
  const deps = harnessDeps({ fs }, out);
  assert.equal((await run(["list", "--json"], deps)).valueOf(), 0); // primes the catalog
  await fs.remove(other);
  const ctx = new CliContext(deps, {});
  await ctx.sessionDir();
  await withCatalog(ctx, async (catalog) => {
    // Handed to the picker up front, the known rows are in its very first frame.
    const known = await knownSessions(ctx, catalog, "current");
    assert.deepEqual(known.map((s) => s.path).sort(), [here, other].sort());
    const first = pickProgram(ctx, { scope: "current", pageSize: 10, catalog, known }).initial;
    assert.deepEqual(first.rows.map((r) => r.session.path).sort(), [here, other].sort());

    // Without them, loading publishes them first; either way the refresh ends with the files on disk.
    const program = pickProgram(ctx, { scope: "current", pageSize: 10, catalog });
    let state = program.initial;
    const published: string[][] = [];
    const apply: Apply<PickState> = (change) => {
      state = change(state);
      published.push((state.lists.current?.sessions ?? []).map((s) => s.path));
    };
    await program.perform!({ kind: "load", scope: "current" }, apply, new AbortController().signal);
    assert.ok(published[0].includes(other), "the first list comes from the catalog, which still knows the deleted file");
    assert.deepEqual(published.at(-1), [here]);
    assert.equal(state.lists.current?.done, true);
  });
});

test("pick holds no message texts: a query scans them from the catalog, and finds a session by them", async () => {
  const { fs, here, other, away } = await setup();
  const deps = harnessDeps({ fs }, { stdout: "", stderr: "" });
  const ctx = new CliContext(deps, {});
  await ctx.sessionDir();
  await withCatalog(ctx, async (catalog) => {
    const program = pickProgram(ctx, { scope: "all", pageSize: 10, catalog });
    let state = program.initial;
    const apply: Apply<PickState> = (change) => void (state = change(state));
    const signal = new AbortController().signal;
    await program.perform!({ kind: "load", scope: "all" }, apply, signal);
    assert.deepEqual(state.lists.all?.sessions.map((s) => s.allMessagesText), ["", "", ""]);
    for (const [query, expected] of [["login", [here]], ["ELSEWHERE", [away]], ['"the login"', [here]], ["re:cart|else", [other, away]]] as const) {
      state = { ...typing(query).reduce(program.reduce, { ...state, query: "" }), effects: [] };
      await program.perform!({ kind: "texts", scope: "all", query }, apply, signal);
      assert.equal(state.textScan?.done, true, query);
      assert.deepEqual(state.rows.map((r) => r.session.path).sort(), [...expected].sort(), query);
    }
  });
});
