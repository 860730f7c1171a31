/**
 * File references: which tool calls and commands name which paths, and how they resolve.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { entryFileRefs, pathWithin, resolveToolPath, toolCallRefs } from "../../../src/core/files/file-refs.ts";
import { commandPaths, shellWords } from "../../../src/core/files/shell-words.ts";

test("toolCallRefs() knows pi's file tools and their defaults", () => {
  assert.deepEqual(toolCallRefs("edit", { path: "a.ts", oldText: "x", newText: "y" }), [{ op: "edit", tool: "edit", paths: ["a.ts"] }]);
  assert.deepEqual(toolCallRefs("write", { file_path: "/abs/b.ts" }), [{ op: "write", tool: "write", paths: ["/abs/b.ts"] }]);
  assert.deepEqual(toolCallRefs("grep", { pattern: "x" }), [{ op: "search", tool: "grep", paths: ["."] }]);
  assert.deepEqual(toolCallRefs("read", {}), []);
  assert.deepEqual(toolCallRefs("mcp__search", { path: "a" }), []);
  assert.deepEqual(toolCallRefs("bash", { command: "sed -i s/a/b/ src/x.ts" }), [{ op: "bash", tool: "bash", paths: ["s/a/b/", "src/x.ts"], command: "sed -i s/a/b/ src/x.ts" }]);
});

test("shellWords() and commandPaths() read quoting and operators, and skip flags, URLs and globs", () => {
  assert.deepEqual(shellWords(`a 'b c' "d \\"e\\"" f\\ g h|i;j`), ["a", "b c", 'd "e"', "f g", "h", "i", "j"]);
  assert.deepEqual(commandPaths("cat ./a.md > out.txt && curl https://x.y/z --config=~/.rc -v src/*.ts ~"), ["./a.md", "out.txt", "~/.rc", "~"]);
});

test("entryFileRefs() reads nested calls, user bash and summary details", () => {
  assert.deepEqual(entryFileRefs({ type: "message", message: { role: "toolResult", nestedCalls: { calls: [{ name: "read", arguments: { path: "n.ts" } }] } } }), [
    { op: "read", tool: "read", paths: ["n.ts"] },
  ]);
  assert.deepEqual(entryFileRefs({ type: "branch_summary", details: { readFiles: ["r.ts", 3], modifiedFiles: [] } }), [{ op: "read", tool: "branch_summary", paths: ["r.ts"] }]);
  assert.deepEqual(entryFileRefs({ type: "message", message: { role: "user", content: "read a.ts" } }), []);
});

test("resolveToolPath() resolves as pi's tools do, and pathWithin() matches files and directories", () => {
  assert.equal(resolveToolPath("@src/../lib/a.ts", "/work/p", "/home/me"), "/work/p/lib/a.ts");
  assert.equal(resolveToolPath("~/notes.md", "/work/p", "/home/me"), "/home/me/notes.md");
  assert.equal(resolveToolPath("/etc/hosts", "/work/p", "/home/me"), "/etc/hosts");
  assert.ok(pathWithin("/work/p/lib/a.ts", "/work/p/lib"));
  assert.ok(pathWithin("/work/p/lib/a.ts", "/work/p/lib/a.ts"));
  assert.ok(!pathWithin("/work/p/library/a.ts", "/work/p/lib"));
  assert.ok(pathWithin("/x", "/"));
});
