/**
 * `resume` in a real terminal (tmux) under the compiled binary, Node, Deno and Bun: pick a session, and a fake `pi`
 * on PATH gets `--session FILE`, runs in the session's folder, owns the terminal (reads what is
 * typed), and its exit code becomes ours. Runs under Node (it drives the others).
 * @module
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { hasTmux, killServer, Pane } from "./_tmux.ts";
import { compileArgs } from "../../scripts/compile.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const skip = !isNode ? "runs under Node; it drives Node, Deno, Bun and the binary itself" : !hasTmux() ? "tmux is not installed" : false;
const bin = (name: string) => join(root, "node_modules", ".bin", name);

/** A pi that says what it got on stdout, asks on the terminal, and exits 5. */
const FAKE_PI = `#!/bin/sh
echo "args: $*"
echo "cwd: $(pwd)"
printf 'fake pi is running, type a line: ' >&2
read line
echo "read: $line"
exit 5
`;

describe("resume in tmux", { skip }, () => {
  const socket = `pi-session-resume-${process.pid}`;
  let work: string;
  let project: string;
  let agent: string;
  let session: string;
  let binary: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-resume-"));
    project = join(work, "project");
    agent = join(work, "agent");
    mkdirSync(project);
    mkdirSync(join(work, "bin"));
    writeFileSync(join(work, "bin", "pi"), FAKE_PI);
    chmodSync(join(work, "bin", "pi"), 0o755);
    const dir = join(agent, "sessions", `--${project.slice(1).replaceAll("/", "-")}--`);
    mkdirSync(dir, { recursive: true });
    session = join(dir, "2026-03-02T09-00-00-000Z_019c4a1e-0000-7000-8000-000000000001.jsonl");
    const header = { type: "session", version: 3, id: "019c4a1e-0000-7000-8000-000000000001", timestamp: "2026-03-02T09:00:00.000Z", cwd: project };
    const user = { type: "message", id: "u1", parentId: null, timestamp: "2026-03-02T09:00:01.000Z", message: { role: "user", content: "Resume me please", timestamp: 1772442001000 } };
    writeFileSync(session, JSON.stringify(header) + "\n" + JSON.stringify(user) + "\n");
    binary = join(work, "pi-session");
    await new Promise<void>((resolve, reject) =>
      execFile(bin("bun"), compileArgs(binary), { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: work } }, (error, _out, stderr) =>
        error ? reject(new Error(stderr)) : resolve()));
  });
  after(() => {
    killServer(socket);
    rmSync(work, { recursive: true, force: true });
  });

  const runtimes: [string, () => string[]][] = [
    ["binary", () => [binary]],
    ["node", () => [process.execPath, "--import", "tsx", "src/cli/main.ts"]],
    ["deno", () => [bin("deno"), "run", "-A", "--quiet", "src/cli/main.ts"]],
    ["bun", () => [bin("bun"), "src/cli/main.ts"]],
  ];

  for (const [runtime, command] of runtimes) {
    const start = (name: string, args: string[], path: string) =>
      Pane.start({
        socket,
        name: `${runtime}-${name}`,
        dir: work,
        cwd: root,
        argv: [...command(), "--agent-dir", agent, "--cwd", project, ...args],
        env: { PATH: path, HOME: work, TZ: "UTC", NO_COLOR: "1", DENO_DIR: process.env.DENO_DIR ?? join(homedir(), ".cache", "deno") },
        columns: 100,
        rows: 30,
      });

    it(`${runtime}: resume picks a session, then pi runs on the terminal in its folder and its exit code is ours`, async () => {
      const pane = start("pick", ["resume"], join(work, "bin"));
      await pane.waitFor(/Resume me please/);
      pane.keys("Enter");
      await pane.waitFor(/fake pi is running, type a line:/);
      pane.type("hello pi");
      pane.keys("Enter");
      const finished = await pane.finished();
      assert.equal(finished.code, 5, finished.screen.join("\n"));
      assert.equal(finished.stdout, `args: --session ${session}\ncwd: ${project}\nread: hello pi\n`);
      assert.match(finished.stty, /(^|\s)icanon(\s|$)/);
    });

    it(`${runtime}: resume <ref> --pi runs the given program; without pi it says how to get it`, async () => {
      const given = start("ref", ["resume", "@", "--pi", join(work, "bin", "pi")], "/usr/bin:/bin");
      await given.waitFor(/fake pi is running/);
      given.keys("Enter");
      const done = await given.finished();
      assert.equal(done.code, 5);
      assert.match(done.stdout, /^args: --session .*\ncwd: /);
      const missing = start("missing", ["resume", "@"], "/usr/bin:/bin");
      const finished = await missing.finished();
      assert.equal(finished.code, 2);
      assert.match(finished.screen.join("\n"), /Cannot start pi: "pi" is not on PATH/);
    });
  }
});
