/**
 * `resume`: starts pi on the session, in the session's folder, and passes pi's exit code on;
 * clear errors when pi or the folder is missing, or no session is given off a terminal.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SpawnFn } from "../../src/cli/deps.ts";
import { run } from "../../src/cli/run.ts";
import { addSession, CWD, harnessDeps, memoryFs, userEntry } from "./_harness.ts";

async function setup() {
  const fs = memoryFs();
  await fs.mkdir(CWD, { recursive: true });
  await fs.mkdir("/work/other", { recursive: true });
  const here = await addSession(fs, "11111111-aaaa", [userEntry("u1", null, "hi")]);
  const there = await addSession(fs, "22222222-bbbb", [userEntry("u1", null, "hi")], { cwd: "/work/other" });
  const gone = await addSession(fs, "33333333-cccc", [userEntry("u1", null, "hi")], { cwd: "/work/renamed" });
  return { fs, here, there, gone };
}

/** Runs `pi-session argv…` with a spawn that records its calls and answers `answer`. */
async function resume(fs: ReturnType<typeof memoryFs>, argv: string[], answer: Awaited<ReturnType<SpawnFn>> = { code: 0 }) {
  const calls: [string, string[], string][] = [];
  const out = { stdout: "", stderr: "" };
  const spawn: SpawnFn = async (command, args, { cwd }) => {
    calls.push([command, args, cwd]);
    return answer;
  };
  const code = await run(["resume", ...argv], { ...harnessDeps({ fs }, out), spawn });
  return { code, calls, ...out };
}

test("resume <ref> starts pi --session FILE in the session's folder and exits with pi's code", async () => {
  const { fs, there } = await setup();
  const r = await resume(fs, ["22222222"], { code: 7 });
  assert.equal(r.code, 7, r.stderr);
  assert.deepEqual(r.calls, [["pi", ["--session", there], "/work/other"]]);
  assert.equal(r.stdout, "");
});

test("resume --pi runs the given program", async () => {
  const { fs, here } = await setup();
  const r = await resume(fs, ["@", "--pi", "/opt/pi/bin/pi"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.calls, [["/opt/pi/bin/pi", ["--session", here], CWD]]);
});

test("resume says how to get pi when it is not found (exit 2)", async () => {
  const { fs } = await setup();
  const r = await resume(fs, ["11111111"], { notFound: true });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Cannot start pi: "pi" is not on PATH\nhint: Install pi .*or pass --pi \/path\/to\/pi/);
  const path = await resume(fs, ["11111111", "--pi", "/nope/pi"], { notFound: true });
  assert.match(path.stderr, /Cannot start pi: \/nope\/pi does not exist/);
});

test("resume refuses a session whose folder is gone, and runs nothing", async () => {
  const { fs } = await setup();
  const r = await resume(fs, ["33333333"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /The session's folder \/work\/renamed does not exist/);
  assert.deepEqual(r.calls, []);
});

test("resume without a ref needs a terminal to pick on (exit 2); a bad ref is exit 2 too", async () => {
  const { fs } = await setup();
  const r = await resume(fs, []);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /resume without a session needs a terminal.*\nhint: Pass the session: pi-session resume <ref>/);
  assert.equal((await resume(fs, ["99999999"])).code, 2);
});
