/**
 * `export -o -` of HTML with stdout on a real terminal (tmux) refuses, exit 2, under the compiled
 * binary, Node, Deno and Bun (each tells a terminal apart its own way); piped, it prints the page.
 * Runs under Node (it drives the others).
 * @module
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { hasTmux, killServer } from "./_tmux.ts";
import { compileArgs } from "../../scripts/compile.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const skip = !isNode ? "runs under Node; it drives Node, Deno, Bun and the binary itself" : !hasTmux() ? "tmux is not installed" : false;
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("export onto a terminal", { skip }, () => {
  const socket = `pi-session-export-${process.pid}`;
  let work: string;
  let binary: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-export-tty-"));
    cpSync(join(root, "examples"), join(work, "examples"), { recursive: true });
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
    it(`${runtime}: export -o - of HTML on a terminal exits 2 and says where to write; piped it prints the page`, async () => {
      const rc = join(work, `${runtime}.rc`);
      const argv = [...command(), "export", "019c4a1e", "-o", "-", "--agent-dir", join(work, "examples/agent")];
      const env = `/usr/bin/env -i TERM="$TERM" PATH=${quote(process.env.PATH ?? "")} HOME=${quote(work)} NO_COLOR=1`;
      // stdout and stderr are the pane itself; only the exit code goes to a file.
      const script = `cd ${quote(root)} && ${env} ${argv.map(quote).join(" ")}; echo $? >${quote(rc)}; exec sleep 600`;
      execFileSync("tmux", ["-L", socket, "new-session", "-d", "-s", runtime, "-x", "120", "-y", "30", script]);
      const until = Date.now() + 60_000;
      while (!existsSync(rc) || readFileSync(rc, "utf8").trim() === "") {
        if (Date.now() > until) throw new Error(`${runtime} did not exit`);
        await sleep(50);
      }
      const screen = execFileSync("tmux", ["-L", socket, "capture-pane", "-p", "-t", runtime], { encoding: "utf8" });
      assert.equal(Number(readFileSync(rc, "utf8")), 2, screen);
      assert.match(screen, /Not printing an HTML page on the terminal/);
      assert.match(screen, /hint: Write it to a file/);
      assert.doesNotMatch(screen, /<html|<!DOCTYPE/i);
      const [program, ...args] = argv;
      const piped = execFileSync(program, args, { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: work }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      assert.match(piped, /^<!DOCTYPE html>/i);
    });
  }
});
