/**
 * pi's synchronous API lets code append at the very end of a process (`process.on("exit")`,
 * where nothing asynchronous runs any more); `pi-session/compat` keeps that working.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const work = mkdtempSync(join(tmpdir(), "pi-session-exit-"));
after(() => rmSync(work, { recursive: true, force: true }));

it("an append in a process.on('exit') handler reaches the file, and no lock is left behind", { skip: isNode ? false : "drives node + tsx" }, () => {
  const script = join(work, "exit.mts");
  writeFileSync(script, `
import { SessionManager } from ${JSON.stringify(join(root, "src/compat/mod.ts"))};
const session = SessionManager.create("/work/p", ${JSON.stringify(join(work, "sessions"))});
session.appendMessage({ role: "user", content: "before exit", timestamp: 0 });
session.appendMessage({ role: "user", content: "in a burst", timestamp: 0 });
process.on("exit", () => {
  session.appendMessage({ role: "assistant", content: [{ type: "text", text: "at exit" }], timestamp: 1 });
});
console.log(session.getSessionFile());
`);
  const file = execFileSync(process.execPath, ["--import", "tsx", script], { cwd: root, encoding: "utf8" }).trim();
  const lines = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((line) => line.message?.role ?? line.type), ["session", "user", "user", "assistant"]);
  assert.equal(lines[3].parentId, lines[2].id);
  assert.equal(existsSync(`${file}.lock`), false);
});

it("process.exit() in the middle of a burst of appends leaves every line written and no lock", { skip: isNode ? false : "drives node + tsx" }, () => {
  const script = join(work, "exit-now.mts");
  writeFileSync(script, `
import { SessionManager } from ${JSON.stringify(join(root, "src/compat/mod.ts"))};
const session = SessionManager.create("/work/p", ${JSON.stringify(join(work, "sessions-now"))});
for (let i = 0; i < 5; i++) session.appendMessage({ role: "user", content: "line " + i, timestamp: i });
console.log(session.getSessionFile());
process.exit(0);
`);
  const file = execFileSync(process.execPath, ["--import", "tsx", script], { cwd: root, encoding: "utf8" }).trim();
  assert.equal(readFileSync(file, "utf8").trim().split("\n").length, 6);
  assert.equal(existsSync(`${file}.lock`), false);
});
