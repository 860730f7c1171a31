/**
 * Table tests for the picker's reducer and render: every key of INTERACTIVE.md, rename and
 * delete as effects, progressive loading, threaded rows, and narrow terminals.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { keyOf, typing } from "../../../src/cli/interactive/keys.ts";
import { renderPick } from "../../../src/cli/interactive/pick/render.ts";
import { effectFailed, initialPickState, type PickState, reducePick, sessionDeleted, sessionRenamed, sessionsLoaded, textsScanned } from "../../../src/cli/interactive/pick/state.ts";
import { textWidth } from "../../../src/render/text-width.ts";
import { BASE, info, loaded } from "./_sessions.ts";

const SESSIONS = [
  info("s1", { minutes: 50, name: "Fix login bug" }),
  info("s2", { minutes: 40, allMessagesText: "login redirect" }),
  info("s3", { minutes: 30 }),
  info("s4", { minutes: 20, name: "cart" }),
  info("s5", { minutes: 10 }),
];

function press(state: PickState, ...keys: string[]): PickState {
  return keys.reduce((s, k) => reducePick(s, keyOf(k)), state);
}

function type(state: PickState, text: string): PickState {
  return typing(text).reduce(reducePick, state);
}

const selectedId = (s: PickState) => s.rows[s.selected]?.session.id;
const draw = (s: PickState, columns = 80) => renderPick(s, { columns, rows: 24 }, { now: new Date(BASE + 60 * 60_000), home: "/home/dev" }).lines;

const MOVES: [keys: string[], expected: string][] = [
  [[], "s1"],
  [["down"], "s2"],
  [["down", "down", "up"], "s2"],
  [["up"], "s1"], // no wrap at the top
  [["down", "down", "down", "down", "down", "down"], "s5"], // nor at the bottom
  [["pagedown"], "s4"], // a page is pageSize (3) rows
  [["pagedown", "pagedown"], "s5"],
  [["pagedown", "pageup"], "s1"],
];

for (const [keys, expected] of MOVES) {
  test(`reducePick() [${keys.join(", ")}] selects ${expected}`, () => {
    assert.equal(selectedId(press(loaded(SESSIONS), ...keys)), expected);
  });
}

test("reducePick() Enter exits with the selected session; Escape and Ctrl+C cancel", () => {
  assert.deepEqual(press(loaded(SESSIONS), "down", "enter").exit, { kind: "done", value: SESSIONS[1] });
  assert.deepEqual(press(loaded(SESSIONS), "escape").exit, { kind: "cancel" });
  assert.deepEqual(press(loaded(SESSIONS), "ctrl+c").exit, { kind: "cancel" });
  assert.equal(press(loaded([]), "enter").exit, undefined);
});

test("reducePick() typing filters by pi's search and selects the best match; Backspace, Ctrl+W and Ctrl+U edit", () => {
  let s = type(press(loaded(SESSIONS), "down", "down"), "login");
  assert.deepEqual(s.rows.map((r) => r.session.id), ["s1", "s2"]);
  assert.equal(selectedId(s), "s1");
  s = press(s, "backspace", "backspace");
  assert.equal(s.query, "log");
  s = press(type(s, " x"), "ctrl+w");
  assert.equal(s.query, "log ");
  assert.equal(press(s, "ctrl+u").query, "");
  const bad = type(loaded(SESSIONS), "re:(");
  assert.deepEqual(bad.rows, []);
  assert.match(bad.queryError ?? "", /./);
  assert.match(draw(bad).join("\n"), /Invalid regex: /);
});

test("reducePick() without the texts in memory asks for a scan per query; a session matching by its texts shows once the scan found it", () => {
  // As the picker lists them: no texts (s2's "login redirect" is only in the catalog).
  const bare = SESSIONS.map((session) => ({ ...session, allMessagesText: "" }));
  let s = type({ ...loaded(bare), texts: "scan" }, "login");
  assert.deepEqual(s.effects.at(-1), { kind: "texts", scope: "current", query: "login" });
  assert.deepEqual(s.rows.map((r) => r.session.id), ["s1"]); // by name, at once
  assert.match(draw(s).join("\n"), /\(1\/1\) {2}Searching messages 0\/…/);
  const found = (tests: string, paths: string[], done: boolean) => ({ scope: "current" as const, tests, found: new Map([[tests, new Set(paths)]]), scanned: 3, total: 5, done });
  s = textsScanned({ ...s, effects: [] }, found("substring:login", ["/s/s2.jsonl"], false));
  assert.deepEqual(s.rows.map((r) => r.session.id), ["s1", "s2"]);
  assert.match(draw(s).join("\n"), /Searching messages 3\/5/);
  s = textsScanned(s, found("substring:login", ["/s/s2.jsonl"], true));
  assert.doesNotMatch(draw(s).join("\n"), /Searching/);
  // The same tests (a space typed) need no new scan; a scan of other tests is not taken.
  assert.deepEqual(type(s, " ").effects, []);
  assert.deepEqual(textsScanned(s, found("substring:cart", ["/s/s3.jsonl"], true)).rows, s.rows);
  // Another word: a scan for both; Tab: a scan of the other scope; no query: none.
  assert.deepEqual(type(s, " re").effects.at(-1), { kind: "texts", scope: "current", query: "login re" });
  assert.deepEqual(press(s, "tab").effects, [{ kind: "load", scope: "all" }, { kind: "texts", scope: "all", query: "login" }]);
  const cleared = press(s, "ctrl+u");
  assert.deepEqual([cleared.effects, cleared.textScan], [[], undefined]);
});

test("reducePick() Ctrl+S cycles threaded → recent → relevance; Ctrl+N keeps named sessions; Ctrl+P shows paths", () => {
  let s = loaded(SESSIONS);
  const sorts = [s.sort];
  for (let i = 0; i < 3; i++) sorts.push((s = press(s, "ctrl+s")).sort);
  assert.deepEqual(sorts, ["threaded", "recent", "relevance", "threaded"]);
  assert.match(draw(press(s, "ctrl+s"))[0], /Sort: Recent$/);
  assert.match(draw(press(s, "ctrl+s", "ctrl+s"))[0], /Sort: Fuzzy$/);
  // Recent with a query filters but keeps the list order; relevance ranks the name first.
  const recent = type(press(loaded([info("x", { minutes: 9, allMessagesText: "cart" }), info("y", { minutes: 1, name: "cart" })]), "ctrl+s"), "cart");
  assert.deepEqual(recent.rows.map((r) => r.session.id), ["x", "y"]);
  assert.deepEqual(press(recent, "ctrl+s").rows.map((r) => r.session.id), ["y", "x"]);
  const named = press(loaded(SESSIONS), "ctrl+n");
  assert.deepEqual(named.rows.map((r) => r.session.id), ["s1", "s4"]);
  assert.match(draw(named)[0], /Name: Named/);
  assert.equal(press(named, "ctrl+n").rows.length, 5);
  assert.match(draw(press(loaded(SESSIONS), "ctrl+p"))[5], /^› Fix login bug +\/s\/s1\.jsonl 2 10m$/);
  assert.match(draw(loaded(SESSIONS))[2], /ctrl\+p path \(off\)/);
});

test("reducePick() Tab switches scope, asking once for the other scope's sessions", () => {
  const s = press(loaded(SESSIONS), "tab");
  assert.equal(s.scope, "all");
  assert.deepEqual(s.effects, [{ kind: "load", scope: "all" }]);
  assert.deepEqual(s.rows, []);
  assert.match(draw(s)[0], /Resume Session \(All\) .*○ Current Folder \| Loading 0\/…/);
  const filled = sessionsLoaded(s, "all", { sessions: [info("z", { cwd: "/home/dev/other" })], loaded: 3, total: 7, done: false });
  assert.match(draw(filled)[0], /Loading 3\/7/);
  assert.match(draw(filled)[5], /^› first message of z +~\/other 2 1h$/);
  const back = press({ ...filled, effects: [] }, "tab", "tab");
  assert.deepEqual(back.effects, []);
  assert.equal(press(back, "tab").scope, "current");
});

test("reducePick() Ctrl+R renames in place: prefilled, Enter asks for the write, Escape or an empty name does nothing", () => {
  let s = press(loaded(SESSIONS), "ctrl+r");
  assert.deepEqual(s.mode, { kind: "rename", path: "/s/s1.jsonl", input: "Fix login bug" });
  assert.equal(draw(s)[3], "New name: Fix login bug");
  s = press(type(press(s, "backspace", "backspace", "backspace"), "BUG "), "enter");
  assert.deepEqual(s.effects, [{ kind: "rename", path: "/s/s1.jsonl", name: "Fix login BUG" }]);
  assert.deepEqual(s.mode, { kind: "list" });
  assert.deepEqual(press(loaded(SESSIONS), "ctrl+r", "x", "escape").effects, []);
  assert.deepEqual(press(loaded(SESSIONS), "down", "ctrl+r", "  ", "enter").effects, []);
  const renamed = sessionRenamed({ ...s, effects: [] }, { ...SESSIONS[0], name: "Fix login BUG" });
  assert.equal(renamed.rows[0].session.name, "Fix login BUG");
  assert.equal(draw(renamed)[1], 'Renamed to "Fix login BUG"');
  assert.equal(press(renamed, "down").status, undefined);
});

test("reducePick() Ctrl+D asks first: Enter deletes, any other key cancels", () => {
  const asking = press(loaded(SESSIONS), "down", "ctrl+d");
  assert.deepEqual(asking.mode, { kind: "delete", path: "/s/s2.jsonl" });
  assert.match(draw(asking)[1], /^Delete session\? enter confirm/);
  assert.deepEqual(press(asking, "enter").effects, [{ kind: "delete", path: "/s/s2.jsonl" }]);
  const cancelled = press(asking, "y");
  assert.deepEqual([cancelled.effects, cancelled.mode, cancelled.query], [[], { kind: "list" }, ""]);
  const gone = sessionDeleted(press(asking, "enter"), "/s/s2.jsonl", "Session moved to trash");
  assert.deepEqual(gone.rows.map((r) => r.session.id), ["s1", "s3", "s4", "s5"]);
  assert.equal(selectedId(gone), "s3");
  assert.equal(draw(effectFailed(gone, "Failed to delete: nope"))[1], "Failed to delete: nope");
});

test("sessionsLoaded() fills the list as files are read, keeping a session the user moved to", () => {
  const start = { ...initialPickState({ scope: "current", processCwd: "/", pageSize: 3 }), effects: [] };
  assert.match(draw(start)[5], /Reading sessions…/);
  let s = sessionsLoaded(start, "current", { sessions: [SESSIONS[2]], loaded: 1, total: 5, done: false });
  s = press(sessionsLoaded(s, "current", { sessions: [SESSIONS[1], SESSIONS[2]], loaded: 2, total: 5, done: false }), "down");
  assert.equal(selectedId(s), "s3");
  s = sessionsLoaded(s, "current", { sessions: SESSIONS, loaded: 5, total: 5, done: true });
  assert.equal(selectedId(s), "s3");
  assert.match(draw(s)[0], /◉ Current Folder \| ○ All/);
  assert.match(draw(loaded([]))[5], /No sessions in current folder\. Press tab to view all\./);
});

test("threaded rows nest forks under their parent session, newest subtree first", () => {
  const sessions = [
    info("root", { minutes: 1 }),
    info("fork", { minutes: 5, parentSessionPath: "/s/root.jsonl" }),
    info("fork2", { minutes: 3, parentSessionPath: "/s/root.jsonl" }),
    info("deep", { minutes: 2, parentSessionPath: "/s/fork.jsonl" }),
    info("solo", { minutes: 4 }),
  ];
  const s = loaded(sessions, { pageSize: 10 });
  assert.deepEqual(s.rows.map((r) => r.prefix + r.session.id), ["root", "   ├─ fork", "   │  └─ deep", "   └─ fork2", "solo"]);
  assert.deepEqual(type(s, "fork").rows.map((r) => r.prefix + r.session.id), ["fork", "fork2"]);
});

test("renderPick() keeps one line per row at 40 columns, cutting with …", () => {
  const long = info("w", { name: "A very long session name that cannot fit in forty columns", cwd: "/home/dev/some/deep/project", minutes: 99 });
  const s = press(loaded([long, ...SESSIONS], { scope: "all", pageSize: 10 }), "ctrl+p");
  const lines = draw(s, 40);
  for (const line of lines) assert.ok(textWidth(line) <= 40, `${JSON.stringify(line)} is wider than 40`);
  assert.equal(lines.length, 5 + 6 + 1);
  assert.match(lines[5], /^› .*…$/);
  assert.ok(textWidth(lines[3]) < 40); // the cursor line never fills the width
  assert.equal(lines.at(-1), "  (1/6)");
});
