/**
 * Terminal behaviour in a real terminal (tmux), under the compiled binary, Node, Deno and
 * Bun: pick and tree -i redraw for a new size without a key press (SIGWINCH); tree -i keeps
 * a deep selected row readable; long output goes through the pager unless `--no-pager`.
 * Runs under Node (it drives the others).
 * @module
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

const WEBSHOP = "--home-dev-webshop--";
const DEEP_ID = "019c4aff-0000-7000-8000-000000000021";

/** A session that branches 21 times, each branch point two levels deeper than the last. */
function deepSession(): string {
  const time = (i: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, i)).toISOString();
  const lines: object[] = [{ type: "session", version: 3, id: DEEP_ID, timestamp: time(0), cwd: "/home/dev/webshop" }];
  const message = (id: string, parentId: string | null, role: string, text: string, i: number) => ({
    type: "message",
    id,
    parentId,
    timestamp: time(i),
    message: role === "user"
      ? { role, content: text, timestamp: Date.parse(time(i)) }
      : { role, content: [{ type: "text", text }], api: "anthropic-messages", provider: "anthropic", model: "claude-test", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: Date.parse(time(i)) },
  });
  lines.push(message("d0000000", null, "user", "start of the deep session", 1));
  let parent = "d0000000";
  for (let i = 1; i <= 21; i++) {
    const n = String(i).padStart(2, "0");
    lines.push(message(`s${n}00000`, parent, "assistant", `side branch ${i}`, 3 * i));
    lines.push(message(`a${n}00000`, parent, "assistant", `fork ${i}: the main line goes on with readable text`, 3 * i + 1));
    lines.push(message(`u${n}00000`, `a${n}00000`, "user", `go on ${i}`, 3 * i + 2));
    parent = `u${n}00000`;
  }
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

describe("terminal sizes and the pager in tmux", { skip }, () => {
  const socket = `pi-session-ux-${process.pid}`;
  let work: string;
  let binary: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-ux-"));
    binary = join(work, "pi-session");
    mkdirSync(join(work, "bin"));
    symlinkSync(process.execPath, join(work, "bin", "node"));
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
    describe(runtime, () => {
      let home: string;
      let agent: string;
      const start = (name: string, args: string[], size: { columns: number; rows: number }, stdoutOnTerminal = false) =>
        Pane.start({
          socket,
          name: `${runtime}-${name}`,
          dir: home,
          cwd: root,
          argv: [...command(), "--agent-dir", agent, "--cwd", "/home/dev/webshop", ...args],
          env: {
            // less (the default pager) and the shell that starts it come from the system.
            PATH: `${join(work, "bin")}:/usr/bin:/bin`,
            HOME: home,
            TZ: "UTC",
            NO_COLOR: "1",
            DENO_DIR: process.env.DENO_DIR ?? join(homedir(), ".cache", "deno"),
          },
          stdoutOnTerminal,
          ...size,
        });

      before(() => {
        home = join(work, runtime);
        agent = join(home, "agent");
        mkdirSync(home);
        cpSync(join(root, "examples", "agent"), agent, { recursive: true });
        writeFileSync(join(agent, "sessions", WEBSHOP, `2026-03-02T10-00-00-000Z_${DEEP_ID}.jsonl`), deepSession());
      });

      it("tree -i redraws for a smaller terminal without a key press, its header on screen", async () => {
        const pane = start("tree-resize", ["tree", DEEP_ID, "-i"], { columns: 140, rows: 40 });
        const before = await pane.waitFor(/\(43\/64\)/);
        assert.equal(before.filter((line) => /^[› ] /.test(line) && /user:|assistant:/.test(line)).length, 20, before.join("\n"));
        pane.resize(70, 16);
        // The page shrinks to 8 rows, so the footer moves up to the 14th line: only a redraw puts it there.
        const after = await pane.waitFor(/^ {2}Session Tree(.|\n)*\n {2}\(43\/64\)\n/);
        const top = after.findIndex((line) => line.startsWith("  Session Tree"));
        const footer = after.findIndex((line) => line.includes("(43/64)"));
        assert.ok(top >= 0 && footer - top <= 14, after.join("\n"));
        for (const line of after) assert.ok(line.length <= 70, line);
        pane.keys("Escape");
        assert.equal((await pane.finished()).code, 130);
      });

      it("pick redraws for a new size without a key press", async () => {
        const pane = start("pick-resize", ["pick"], { columns: 100, rows: 30 });
        await pane.waitFor(/Cart discount codes/);
        pane.resize(72, 12);
        // Redrawn, the header's right part ends at the new edge (tmux would only cut the old line).
        const after = await pane.waitFor(/^Resume Session.*Sort: Threaded *\n(.|\n)*\(1\/\d+\)/);
        for (const line of after) assert.ok(line.length <= 72, line);
        assert.ok(after.findIndex((line) => /\(1\/\d+\)/.test(line)) < 12, after.join("\n"));
        // Once more, when the sessions' refresh (which redraws too) is surely over.
        pane.resize(90, 14);
        // At 72 columns the title was cut ("Resume Session (Cur…"); at 90 it has room again.
        await pane.waitFor(/^Resume Session \(Current Folder\) +◉ Current Folder.*Sort: Threaded *\n(.|\n)*\(1\/\d+\)/);
        pane.keys("Escape");
        assert.equal((await pane.finished()).code, 130);
      });

      it("tree -i on a 21-branch session at 140 columns shows the selected row's text", async () => {
        const pane = start("tree-deep", ["tree", DEEP_ID, "-i"], { columns: 140, rows: 40 });
        const screen = await pane.waitFor(/\(43\/64\)/);
        const selected = screen.find((line) => line.startsWith("› "))!;
        assert.match(selected, /• user: go on 21$/);
        pane.keys("Up");
        const up = await pane.waitFor(/› .*• assistant: fork 21: the main line goes on with readable text/);
        for (const line of up) assert.ok(line.length <= 140, line);
        pane.keys("Escape");
        await pane.finished();
      });

      it("show taller than the terminal opens the pager (q quits, exit 0); --no-pager prints it", async () => {
        const pane = start("pager", ["show", DEEP_ID], { columns: 80, rows: 20 }, true);
        const paged = await pane.waitFor(/start of the deep session/);
        assert.ok(!paged.join("\n").includes("go on 21"), "only the first screen is shown");
        pane.keys("q");
        assert.equal((await pane.finished()).code, 0);

        const plain = start("no-pager", ["--no-pager", "show", DEEP_ID], { columns: 80, rows: 20 }, true);
        const done = await plain.finished();
        assert.equal(done.code, 0);
        assert.match(done.screen.join("\n"), /go on 21/);
      });
    });
  }
});
