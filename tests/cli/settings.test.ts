/**
 * Settings as commands read them: `sessionDir` from the agent's settings.json (JSONC welcome),
 * the project's `.pi/settings.json` over it, and a broken file warned about and ignored.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addSession, AGENT_DIR, CWD, memoryFs, runCli, writeText } from "./_harness.ts";

test("sessionDir comes from a settings.json with comments and trailing commas", async () => {
  const fs = memoryFs();
  await addSession(fs, "custom-1", [], { dir: "/data/sessions" });
  await addSession(fs, "default-1");
  await writeText(fs, `${AGENT_DIR}/settings.json`, '{\n  // mine\n  "sessionDir": "/data/sessions",\n}\n');
  const { code, stdout, stderr } = await runCli(["list", "--json"], { fs });
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout).map((s: { id: string }) => s.id), ["custom-1"]);
  assert.equal(stderr, "");
});

test("project settings override the agent's; a broken file is named with line and column and ignored", async () => {
  const fs = memoryFs();
  await addSession(fs, "custom-1", [], { dir: "/data/sessions" });
  await addSession(fs, "project-1", [], { dir: "/data/project" });
  await writeText(fs, `${AGENT_DIR}/settings.json`, '{"sessionDir": "/data/sessions"}');
  await writeText(fs, `${CWD}/.pi/settings.json`, '{"sessionDir": "/data/project"}');
  const both = await runCli(["list", "--json"], { fs });
  assert.deepEqual(JSON.parse(both.stdout).map((s: { id: string }) => s.id), ["project-1"]);

  await writeText(fs, `${CWD}/.pi/settings.json`, '{\n  "sessionDir": "/data/project"\n  "x": 1\n}');
  const broken = await runCli(["list", "--json"], { fs });
  assert.deepEqual(JSON.parse(broken.stdout).map((s: { id: string }) => s.id), ["custom-1"]);
  assert.match(broken.stderr, new RegExp(`^warning: Ignoring ${CWD}/\\.pi/settings\\.json: line 3, column 3: CommaExpected\\n$`));
});

test("--session-dir and --agent-dir: a missing folder gets a note, a file is a usage error", async () => {
  const fs = memoryFs();
  await addSession(fs, "here-1");
  await writeText(fs, "/data/file.txt", "not a folder\n");
  const missing = await runCli(["--session-dir", "/data/none", "list"], { fs });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^note: --session-dir \/data\/none does not exist\n/);
  const quiet = await runCli(["-q", "--agent-dir", "/data/none", "list", "--all"], { fs });
  assert.equal(quiet.code, 1);
  assert.equal(quiet.stderr, "");
  for (const [flag, want] of [["--session-dir", /Pass the folder that holds the session files/], ["--agent-dir", /Pass pi's agent folder/]] as const) {
    const file = await runCli([flag, "/data/file.txt", "list", "--all"], { fs });
    assert.equal(file.code, 2, flag);
    assert.match(file.stderr, new RegExp(`${flag} /data/file\\.txt is a file, not a folder`), flag);
    assert.match(file.stderr, want, flag);
  }
  // A folder that exists: no note.
  const fine = await runCli(["--agent-dir", AGENT_DIR, "list", "--all", "--json"], { fs });
  assert.equal(fine.code, 0, fine.stderr);
  assert.equal(fine.stderr, "");
});
