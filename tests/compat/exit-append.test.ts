/**
 * pi's synchronous API lets code append at the very end of a process (`process.on("exit")`,
 * where nothing asynchronous runs any more); `pi-session/compat` keeps that working.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const work = mkdtempSync(join(tmpdir(), "pi-session-exit-"));
after(() => rmSync(work, { recursive: true, force: true }));

it("an append in a process.on('exit') handler reaches the file", { skip: isNode ? false : "drives node + tsx" }, () => {
  const script = join(work, "exit.mts");
  writeFileSync(script, `
import { SessionManager } from ${JSON.stringify(join(root, "src/compat/mod.ts"))};
const session = SessionManager.create("/work/p", ${JSON.stringify(join(work, "sessions"))});
session.appendMessage({ role: "user", content: "before exit", timestamp: 0 });
process.on("exit", () => {
  session.appendMessage({ role: "assistant", content: [{ type: "text", text: "at exit" }], timestamp: 1 });
});
console.log(session.getSessionFile());
`);
  const file = execFileSync(process.execPath, ["--import", "tsx", script], { cwd: root, encoding: "utf8" }).trim();
  const lines = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((line) => line.message?.role ?? line.type), ["session", "user", "assistant"]);
  assert.equal(lines[2].parentId, lines[1].id);
});
