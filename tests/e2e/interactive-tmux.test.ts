/**
 * The interactive prompts in a real terminal (tmux), under the compiled binary, Node, Deno
 * and Bun: pick by id, rename, delete to the trash; tree -i filters, folds, labels and
 * Escape; the fork selector; a 40-column terminal. Runs under Node (it drives the others).
 * @module
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { homedir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type Finished, hasTmux, killServer, Pane } from "./_tmux.ts";
import { compileArgs } from "../../scripts/compile.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const skip = !isNode ? "runs under Node; it drives Node, Deno, Bun and the binary itself" : !hasTmux() ? "tmux is not installed" : false;
const bin = (name: string) => join(root, "node_modules", ".bin", name);

const WEBSHOP = "--home-dev-webshop--";
const CART = "2026-03-02T09-00-07-000Z_019c4a1e-5b20-7c3d-8e41-a2f6c9d0b311.jsonl"; // "Cart discount codes", branched, labelled
const SPEED = "2026-03-02T09-03-23-000Z_019c4a6b-93e4-7a05-8d6f-1c3b7e2f9a43.jsonl";
const FIRST = "2026-03-02T09-03-16-000Z_019c4a52-0d7a-7f18-b9c2-4e85d1a7c622.jsonl";

/** The terminal is as the prompt found it: cooked mode, echo on, cursor shown. */
function restored(finished: Finished): void {
  assert.match(finished.stty, /(^|\s)icanon(\s|$)/);
  assert.match(finished.stty, /(^|\s)echo(\s|$)/);
  assert.ok(finished.cursorVisible, "the cursor is visible");
}

function lines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
}

describe("interactive prompts in tmux", { skip }, () => {
  const socket = `pi-session-test-${process.pid}`;
  let work: string;
  let binary: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-tmux-"));
    binary = join(work, "pi-session");
    // A PATH with no `trash` program, so deletes use the freedesktop trash under XDG_DATA_HOME.
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
      const sessions = () => join(agent, "sessions", WEBSHOP);
      const start = (name: string, args: string[], size = { columns: 100, rows: 30 }) =>
        Pane.start({
          socket,
          name: `${runtime}-${name}`,
          dir: home,
          cwd: root,
          argv: [...command(), "--agent-dir", agent, "--cwd", "/home/dev/webshop", ...args],
          env: {
            PATH: join(work, "bin"),
            HOME: home,
            XDG_DATA_HOME: join(home, "data"),
            TZ: "UTC",
            NO_COLOR: "1",
            DENO_DIR: process.env.DENO_DIR ?? join(homedir(), ".cache", "deno"),
          },
          ...size,
        });

      before(() => {
        home = join(work, runtime);
        agent = join(home, "agent");
        mkdirSync(home);
        cpSync(join(root, "examples", "agent"), agent, { recursive: true });
      });

      it("pick: rename, delete to the trash, then Enter on a typed id prints only the path", async () => {
        const pane = start("pick", ["pick"]);
        await pane.waitFor(/Cart discount codes/);
        pane.type("4a6b");
        const typed = await pane.waitFor(/› Speed up the product search page\./);
        // The first frame is drawn before the prompt starts, which then draws over it: once.
        assert.equal(typed.filter((line) => line.startsWith("Resume Session")).length, 1, typed.join("\n"));
        pane.keys("C-r");
        await pane.waitFor(/^New name:/m);
        pane.type("Search speed-up");
        pane.keys("Enter");
        await pane.waitFor(/Renamed to "Search speed-up"/);
        const renamed = lines(join(sessions(), SPEED)).at(-1)!;
        assert.deepEqual([renamed.type, renamed.name], ["session_info", "Search speed-up"]);

        pane.keys("C-u");
        pane.type("4a52");
        await pane.waitFor(/› The cart should accept discount codes/);
        pane.keys("C-d");
        await pane.waitFor(/Delete session\? enter confirm/);
        pane.keys("Enter");
        await pane.waitFor(/Session moved to /);
        assert.deepEqual(readdirSync(join(home, "data", "Trash", "files")), [FIRST]);
        assert.ok(!readdirSync(sessions()).includes(FIRST));

        pane.keys("C-u");
        pane.type("019c4a1e");
        await pane.waitFor(/› Cart discount codes/);
        pane.keys("Enter");
        const finished = await pane.finished();
        assert.deepEqual([finished.code, finished.stdout], [0, join(sessions(), CART) + "\n"]);
        assert.ok(finished.screen.every((line) => line.trim() === ""), finished.screen.join("\n")); // the picker cleared itself
        restored(finished);
      });

      it("tree -i: filters change the footer (Ctrl+O, Shift+Ctrl+O), Ctrl+Left folds, Shift+L labels, Escape exits 130", async () => {
        const pane = start("tree", ["tree", "019c4a1e", "-i"]);
        await pane.waitFor(/\(12\/16\)$/m);
        pane.keys("C-o");
        await pane.waitFor(/\(\d+\/\d+\) \[no-tools\]$/m);
        pane.keys("C-o");
        await pane.waitFor(/\(\d+\/\d+\) \[user\]$/m);
        // Shift+Ctrl+O cycles back, in xterm's form and in kitty's (which Deno's readline cuts up).
        pane.type("\x1b[27;6;111~");
        await pane.waitFor(/\(\d+\/\d+\) \[no-tools\]$/m);
        pane.type("\x1b[111;6u");
        await pane.waitFor(/\(12\/16\)$/m);
        pane.keys("C-a");
        await pane.waitFor(/\(\d+\/23\) \[all\]$/m);
        pane.keys("C-d");
        await pane.waitFor(/\(12\/16\)$/m);
        pane.keys("C-Left"); // to the start of this branch: the branch summary
        await pane.waitFor(/› ├⊟ • \[branch summary\]/);
        pane.keys("C-Left");
        const folded = await pane.waitFor(/› ├⊞ • \[branch summary\]/);
        assert.ok(!folded.some((line) => line.includes("DiscountLine")));
        pane.type("L");
        await pane.waitFor(/Label \(empty to remove\):/);
        pane.type("tried-percent");
        pane.keys("Enter");
        await pane.waitFor(/\[tried-percent\] \[branch summary\]/);
        const label = lines(join(sessions(), CART)).at(-1)!;
        assert.deepEqual([label.type, label.targetId, label.label], ["label", "1a2beeee", "tried-percent"]);
        pane.keys("Escape");
        const finished = await pane.finished();
        assert.deepEqual([finished.code, finished.stdout], [130, ""]);
        assert.ok(finished.screen.every((line) => line.trim() === ""), finished.screen.join("\n"));
        restored(finished);
      });

      it("fork without --at: the selector forks before the chosen message", async () => {
        const pane = start("fork", ["fork", "019c4a1e"]);
        await pane.waitFor(/Message 4 of 4/);
        pane.keys("Up");
        await pane.waitFor(/› Instead, model discounts as a separate line item\./);
        pane.keys("Enter");
        const { code, stdout, screen } = await pane.finished();
        assert.equal(code, 0, screen.join("\n"));
        assert.deepEqual(screen.filter((line) => line.trim() !== ""), ["Message to send again:", "Instead, model discounts as a separate line item."]);
        const forked = lines(stdout.trim());
        assert.equal(forked[0].parentSession, join(sessions(), CART));
        const ids = forked.map((entry) => entry.id);
        assert.ok(ids.includes("1a2beeee") && !ids.includes("1a2bffff"), "ends at the branch summary, before the message");
      });

      it("a 40-column terminal keeps one line per row; Ctrl+C exits 130 with no output", async () => {
        const pane = start("narrow", ["pick", "--all"], { columns: 40, rows: 20 });
        const screen = await pane.waitFor(/\(1\/\d+\)/);
        const first = screen.findIndex((line) => line.startsWith("› "));
        const counter = screen.findIndex((line) => /\(1\/\d+\)/.test(line));
        assert.equal(counter - first, Number(/\(1\/(\d+)\)/.exec(screen[counter])![1]), screen.join("\n"));
        for (const line of screen) assert.ok(line.length <= 40, line);
        assert.ok(screen.slice(first, counter).every((line) => /\d+ \d+(mo|y|w|d|h|m)$|…$/.test(line)), screen.join("\n"));
        pane.keys("C-c");
        const finished = await pane.finished();
        assert.deepEqual([finished.code, finished.stdout], [130, ""]);
        assert.ok(finished.screen.every((line) => line.trim() === ""), finished.screen.join("\n"));
        restored(finished);
      });
    });
  }
});
