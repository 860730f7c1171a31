/**
 * The picker's first page, kept between runs: threading the kept sessions gives the first rows
 * of the whole list (checked on many generated lists with forks), it survives a round trip
 * through the cache, and the next start's first frame comes from it before the load corrects it.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CliContext } from "../../../src/cli/context.ts";
import { FIRST_PAGE_CHECKED, FIRST_PAGE_ROWS, firstPageSessions, readFirstPage, writeFirstPage } from "../../../src/cli/interactive/pick/first-page.ts";
import { threadRows } from "../../../src/cli/interactive/pick/threads.ts";
import type { SessionInfo } from "../../../src/core/info/session-info.ts";
import { sortByModified } from "../../../src/session/list-sessions.ts";
import { addSession, harnessDeps, memoryFs, readText, userEntry } from "../_harness.ts";
import { scriptedTerminal } from "./_scripted-terminal.ts";
import { run } from "../../../src/cli/run.ts";
import { VERSION_LINE } from "../../../src/version.ts";
import stringWidth from "string-width";

/** A small deterministic generator (a linear congruential one is plenty here). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function session(i: number, modified: number, parent?: number): SessionInfo {
  return {
    path: `/s/${String(i).padStart(4, "0")}.jsonl`,
    id: `id-${i}`,
    cwd: "/w",
    name: undefined,
    parentSessionPath: parent === undefined ? undefined : `/s/${String(parent).padStart(4, "0")}.jsonl`,
    created: new Date(0),
    modified: new Date(modified),
    messageCount: i % 7,
    firstMessage: `message ${i}`,
    allMessagesText: "",
  };
}

/** Sessions with forks (often of recent sessions, sometimes chains), and ties in time. */
function generated(seed: number): SessionInfo[] {
  const next = random(seed);
  const count = 20 + Math.floor(next() * 400);
  const sessions: SessionInfo[] = [];
  for (let i = 0; i < count; i++) {
    const forked = i > 0 && next() < 0.4;
    const parent = forked ? Math.max(0, i - 1 - Math.floor(next() * next() * i)) : undefined;
    sessions.push(session(i, Math.floor(next() * 50) * 1000, parent));
  }
  return sortByModified(sessions);
}

const shape = (sessions: SessionInfo[]) => threadRows(sessions, (p) => p).slice(0, FIRST_PAGE_CHECKED).map((r) => `${r.prefix}${r.session.path}`);

test("threading the kept sessions gives the first page of the whole list, on 300 generated lists", () => {
  let kept = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const sessions = generated(seed);
    const page = firstPageSessions(sessions, "/");
    if (page === undefined) continue;
    kept++;
    assert.ok(page.length <= FIRST_PAGE_ROWS);
    assert.deepEqual(shape(page), shape(sessions), `seed ${seed}`);
  }
  assert.ok(kept >= 290, `a page was kept for ${kept} of 300 lists`);
});

test("a thread of dozens of forks under a row near the top keeps no page rather than a wrong one", () => {
  // Root 0 has two forks; the newer one (1) has 80 forks of its own, so the cut at 60 rows falls inside it.
  const sessions = sortByModified([session(0, 1000), session(1, 900_000, 0), session(2, 500_000, 0), ...Array.from({ length: 80 }, (_, i) => session(3 + i, 800_000 - i, 1))]);
  const whole = shape(sessions);
  assert.ok(whole[1].startsWith("   ├─ "), whole.join("\n"));
  const page = firstPageSessions(sessions, "/");
  assert.equal(page, undefined, "cut at 60 rows, fork 1 would seem the last of its siblings");
});

test("the first page round-trips through the cache; another scope, a broken file or PI_SESSION_CATALOG=off give none", async () => {
  const fs = memoryFs();
  const out = { stdout: "", stderr: "" };
  const ctx = new CliContext(harnessDeps({ fs }, out), {});
  const places = { dirs: ["/home/u/.pi/agent/sessions"] };
  const sessions = generated(7);
  sessions[0] = { ...sessions[0], created: new Date(Number.NaN), name: "named" };
  await writeFirstPage(ctx, places, sessions);
  // As JSON: absent and undefined fields alike, times as numbers (an invalid one as null).
  const times = (list: SessionInfo[] | undefined) => JSON.parse(JSON.stringify(list?.map((s) => ({ ...s, created: s.created.getTime(), modified: s.modified.getTime(), allMessagesText: "" }))));
  const read = await readFirstPage(ctx, places);
  assert.ok(read && Number.isNaN(read[0].created.getTime()), "an invalid time stays invalid");
  assert.deepEqual(times(read), times(firstPageSessions(sessions, "/work/proj")));
  assert.equal(await readFirstPage(ctx, { dirs: ["/elsewhere"] }), undefined);
  assert.equal(await readFirstPage(ctx, { ...places, cwdFilter: "/work/proj" }), undefined);
  const [file] = (await fs.list("/home/u/.cache/pi-session")).filter((e) => e.name.startsWith("pick-first-page-"));
  await fs.writeAtomic(`/home/u/.cache/pi-session/${file.name}`, new TextEncoder().encode("{broken"));
  assert.equal(await readFirstPage(ctx, places), undefined);
  const off = new CliContext(harnessDeps({ fs, env: { PI_SESSION_CATALOG: "off" } }, out), {});
  await writeFirstPage(off, places, sessions);
  assert.equal(await readFirstPage(off, places), undefined);
});

test("pick keeps its first page, and the next start's first frame shows it until the load corrects it", async () => {
  const fs = memoryFs();
  await addSession(fs, "aaaa1111-0000", [userEntry("u1", null, "fix the login")]);
  await addSession(fs, "bbbb2222-0000", [userEntry("u1", null, "cart totals")]);
  const pick = async () => {
    const terminal = scriptedTerminal(["escape"]);
    const out = { stdout: "", stderr: "" };
    const code = await run(["pick"], { ...harnessDeps({ fs, stdinIsTTY: true, stderrIsTTY: true }, out), terminal });
    return { code, terminal };
  };
  assert.equal((await pick()).code, 130);
  const dir = "/home/u/.cache/pi-session";
  const [file] = (await fs.list(dir)).filter((e) => e.name.startsWith("pick-first-page-"));
  assert.ok(file, "the first page was kept");
  // Make the kept page tell the first frame apart from the sessions on disk.
  const path = `${dir}/${file.name}`;
  const page = JSON.parse(await readText(fs, path));
  // With the widths measured first in this process (string-width's answers), for the same build's next start.
  assert.equal(page.build, VERSION_LINE);
  assert.ok(Array.isArray(page.widths) && page.widths.length > 0, JSON.stringify(page.widths));
  for (const [run, width] of page.widths) assert.equal(width, stringWidth(run), run);
  page.sessions[0].firstMessage = "as kept last time";
  await fs.writeAtomic(path, new TextEncoder().encode(JSON.stringify(page)));
  const { terminal } = await pick();
  assert.ok(terminal.initialFrame?.some((line) => line.includes("as kept last time")), terminal.initialFrame?.join("\n"));
  assert.ok(!terminal.frames.at(-1)!.some((line) => line.includes("as kept last time")), "the load replaced it");
});
