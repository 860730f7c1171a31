/**
 * Tests for `completions` and `__complete-sessions`: the bash script is sourced in a real
 * bash and asked for commands, flags, flag values and session ids; zsh and fish are checked
 * for content (and syntax where those shells are installed).
 * @module
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { loadCommands } from "../../src/cli/commands/mod.ts";

const COMMANDS = await loadCommands();
import { nodeFileSystem } from "../../src/io/node.ts";
import { addSession, memoryFs, runCli, userEntry } from "./_harness.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let scratch = "";
let bashScript = "";

function has(program: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;
}

/**
 * Completes `words` (the last one being completed) in bash with the script loaded and
 * `stub` defining `pi-session`; returns COMPREPLY, sorted.
 */
function complete(words: string[], stub: string): string[] {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(" ");
  const script = `${stub}\nsource '${bashScript}'\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}\n_pi_session\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync("bash", ["--norc", "--noprofile", "-c", script], { encoding: "utf8", cwd: scratch });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split("\n").filter((l) => l !== "").sort();
}

/** A `pi-session` stand-in: prints ids for __complete-sessions and logs its arguments. */
const STUB = `pi-session() { echo "$*" >> "${"$"}{LOG:-/dev/null}"; [[ " $* " == *" __complete-sessions "* ]] && printf '%s\\n' 01a2b3c4-one 01a2ffff-two 9abc0000-three; }`;

describe("completions", () => {
  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), "pi-session-completions-"));
    const r = await runCli(["completions", "bash"]);
    assert.equal(r.code, 0, r.stderr);
    bashScript = join(scratch, "pi-session.bash");
    await writeFile(bashScript, r.stdout);
  });
  after(() => rm(scratch, { recursive: true, force: true }));

  it("completions bash completes command names, without hidden ones", () => {
    assert.deepEqual(complete(["pi-session", "mi"], STUB), ["migrate"]);
    assert.deepEqual(complete(["pi-session", "--json", "de"], STUB), ["delete"]);
    assert.deepEqual(complete(["pi-session", "__"], STUB), []);
    const visible = COMMANDS.filter((c) => !c.hidden).map((c) => c.name);
    const all = complete(["pi-session", ""], STUB);
    for (const name of visible) assert.ok(all.includes(name), `${name} is offered`);
  });

  it("completions bash completes per-command and global flags", () => {
    assert.deepEqual(complete(["pi-session", "delete", "x", "--p"], STUB), ["--permanent"]);
    assert.ok(complete(["pi-session", "migrate", "--"], STUB).includes("--dry-run"));
    assert.ok(complete(["pi-session", "migrate", "--"], STUB).includes("--session-dir"));
    assert.deepEqual(complete(["pi-session", "list", "--sort", "m"], STUB), ["messages", "modified"]);
    assert.deepEqual(complete(["pi-session", "completions", ""], STUB), ["bash", "fish", "zsh"]);
  });

  it("completions bash completes session ids, passing the global options on", async () => {
    const log = join(scratch, "calls.log");
    const stub = `LOG='${log}'\n${STUB}`;
    assert.deepEqual(complete(["pi-session", "info", "01a2"], stub), ["01a2b3c4-one", "01a2ffff-two"]);
    assert.deepEqual(complete(["pi-session", "--agent-dir", "/a", "delete", "x", "9"], stub), ["9abc0000-three"]);
    const calls = spawnSync("cat", [log], { encoding: "utf8" }).stdout.trim().split("\n");
    assert.deepEqual(calls, ["__complete-sessions 01a2", "--agent-dir /a __complete-sessions 9"]);
    // The second argument of `context` is not a session; an option's value is not one either.
    assert.deepEqual(complete(["pi-session", "context", "x", "01"], STUB), []);
    assert.deepEqual(complete(["pi-session", "context", "--leaf", "01"], STUB), []);
  });

  it("completions bash asks the real CLI for session ids", { timeout: 60_000 }, async () => {
    const home = join(scratch, "home");
    const cwd = join(scratch, "proj");
    await addSession(nodeFileSystem, "7f00aaaa-local", [userEntry("u1", null, "hi")], { dir: `${home}/.pi/agent/sessions/--elsewhere--`, cwd: "/elsewhere" });
    await addSession(nodeFileSystem, "7f00bbbb-other", [userEntry("u1", null, "hi")], { dir: `${home}/.pi/agent/sessions/--more--`, cwd: "/more" });
    const cli = `pi-session() { (cd '${ROOT}' && env -u PI_CODING_AGENT_DIR -u PI_CODING_AGENT_SESSION_DIR HOME='${home}' node --import tsx src/cli/main.ts --cwd '${cwd}' "$@"); }`;
    // One run only: each one starts the CLI under tsx, which takes a second or two.
    assert.deepEqual(complete(["pi-session", "info", "7f00"], cli), ["7f00aaaa-local", "7f00bbbb-other"]);
  });

  it("completions zsh and fish cover every command and flag", async () => {
    for (const shell of ["zsh", "fish"]) {
      const r = await runCli(["completions", shell]);
      assert.equal(r.code, 0, r.stderr);
      for (const command of COMMANDS.filter((c) => !c.hidden)) {
        assert.ok(r.stdout.includes(command.name), `${shell}: ${command.name}`);
        for (const option of command.options ?? []) {
          const long = /--[\w-]+/.exec(option.flags)![0];
          assert.ok(r.stdout.includes(shell === "fish" ? `-l ${long.slice(2)}` : long), `${shell}: ${command.name} ${long}`);
        }
      }
      assert.ok(r.stdout.includes("__complete-sessions"));
      if (has(shell)) {
        const file = join(scratch, `script.${shell}`);
        await writeFile(file, r.stdout);
        const check = spawnSync(shell, ["-n", file], { encoding: "utf8" });
        assert.equal(check.status, 0, check.stderr);
      }
    }
  });

  it("completions fish completes commands, flags and session ids", { skip: has("fish") ? false : "fish is not installed" }, async () => {
    const script = join(scratch, "pi-session.fish");
    await writeFile(script, (await runCli(["completions", "fish"])).stdout);
    const stub = "function pi-session; contains -- __complete-sessions $argv; and printf '%s\\n' 01a2b3c4-one 01a2ffff-two 9abc0000-three; end";
    const fish = (line: string) => {
      const r = spawnSync("fish", ["--no-config", "-c", `${stub}; source '${script}'; complete -C '${line}'`], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.split("\n").filter((l) => l !== "").map((l) => l.split("\t")[0]).sort();
    };
    assert.deepEqual(fish("pi-session mi"), ["migrate"]);
    assert.deepEqual(fish("pi-session delete x --p"), ["--permanent"]);
    assert.deepEqual(fish("pi-session list --sort m"), ["messages", "modified"]);
    assert.deepEqual(fish("pi-session info 01a2"), ["01a2b3c4-one", "01a2ffff-two"]);
    assert.deepEqual(fish("pi-session context x 01"), []);
  });

  it("completions zsh picks commands, flags and session ids", { skip: has("zsh") ? false : "zsh is not installed" }, async () => {
    const script = join(scratch, "_pi-session");
    await writeFile(script, (await runCli(["completions", "zsh"])).stdout);
    // The completion builtins are stubbed to print what would be offered.
    const stubs = [
      `compadd() { local a on=0; for a in "$@"; do [[ $a == -a ]] && { print -rl -- "\${(@P)\${@[-1]}}"; return; }; ((on)) && print -r -- "$a"; [[ $a == -- ]] && on=1; done; }`,
      `_describe() { [[ $1 == -t ]] && shift 2; shift; local a; for a in "$@"; do [[ $a == -- ]] || print -rl -- "\${(@P)a}" | cut -d: -f1; done; }`,
      `_files() { :; }; compdef() { :; }`,
      `pi-session() { [[ " $* " == *" __complete-sessions "* ]] && print -l 01a2b3c4-one 01a2ffff-two 9abc0000-three; }`,
      `source '${script}'`,
    ].join("\n");
    const zsh = (...line: string[]) => {
      const quoted = line.map((w) => `'${w}'`).join(" ");
      const r = spawnSync("zsh", ["-f", "-c", `${stubs}\nwords=(${quoted}); CURRENT=$#words; _pi_session; exit 0`], { encoding: "utf8" });
      assert.equal(r.stderr, "");
      return r.stdout.split("\n").filter((l) => l !== "" && l.startsWith(line[line.length - 1])).sort();
    };
    assert.deepEqual(zsh("pi-session", "mi"), ["migrate"]);
    assert.deepEqual(zsh("pi-session", "delete", "x", "--p"), ["--permanent"]);
    assert.deepEqual(zsh("pi-session", "list", "--sort", "m"), ["messages", "modified"]);
    assert.deepEqual(zsh("pi-session", "info", "01a2"), ["01a2b3c4-one", "01a2ffff-two"]);
    assert.deepEqual(zsh("pi-session", "context", "x", "01"), []);
  });

  it("completions rejects an unknown shell with exit 2", async () => {
    const r = await runCli(["completions", "powershell"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Pass one of: bash, zsh, fish/);
  });
});

describe("__complete-sessions", () => {
  it("__complete-sessions lists this directory's ids first, then other projects', by prefix", async () => {
    const fs = memoryFs();
    await addSession(fs, "ab-other", [], { cwd: "/other" });
    await addSession(fs, "ab-local", []);
    await addSession(fs, "cd-local", []);
    const all = await runCli(["__complete-sessions"], { fs });
    assert.equal(all.code, 0, all.stderr);
    const ids = all.stdout.trim().split("\n");
    assert.deepEqual(ids.slice(0, 2).sort(), ["ab-local", "cd-local"]);
    assert.deepEqual(ids.slice(2), ["ab-other"]);
    assert.equal((await runCli(["__complete-sessions", "ab"], { fs })).stdout, "ab-local\nab-other\n");
  });

  it("__complete-sessions is hidden from help", async () => {
    const r = await runCli(["--help"]);
    assert.equal(r.code, 0);
    assert.doesNotMatch(r.stdout, /__complete-sessions/);
    assert.match(r.stdout, /completions/);
  });
});
