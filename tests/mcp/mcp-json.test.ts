import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "jsonc-parser";
import { editMcpJson, mcpJsonPath } from "../../src/mcp/install.ts";
import { entrySnippet, removeServerEntry, setServerEntry } from "../../src/mcp/mcp-json.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { SessionError } from "../../src/session/errors.ts";

const ENTRY = { command: "pi-session", args: ["mcp"], description: "Search and read past pi sessions (pi-session)" };
const WITH_COMMENTS = `{
    // my servers
    "mcpServers": {
        /* files */
        "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] },
        "docs": { "url": "https://example.com/mcp" }, // trailing comma next
    },
    "autoEnableCodemode": false,
}
`;

async function setFile(fs: MemoryFileSystem, path: string, text: string): Promise<void> {
  await fs.mkdir(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
  await fs.writeAtomic(path, new TextEncoder().encode(text));
}

/** The file's text, or undefined when it does not exist. */
async function fileText(fs: MemoryFileSystem, path: string): Promise<string | undefined> {
  if ((await fs.stat(path)) === null) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of fs.read(path)) chunks.push(chunk);
  return new TextDecoder().decode(Buffer.concat(chunks));
}

describe("mcp.json edits", () => {
  it("setServerEntry() adds the entry and keeps comments, other servers, trailing commas and indentation", () => {
    const edit = setServerEntry(WITH_COMMENTS, ENTRY);
    assert.equal(edit.outcome, "added");
    assert.equal(edit.notStrictJson, true);
    const text = edit.text!;
    for (const kept of ["// my servers", "/* files */", "// trailing comma next", '"autoEnableCodemode": false,']) assert.ok(text.includes(kept), kept);
    assert.ok(text.includes('        "pi-session": {'), "indented as the file is (4 spaces)");
    const value = parse(text, [], { allowTrailingComma: true });
    assert.deepEqual(Object.keys(value.mcpServers), ["filesystem", "docs", "pi-session"]);
    assert.deepEqual(value.mcpServers["pi-session"], ENTRY);
    assert.deepEqual(value.mcpServers.docs, { url: "https://example.com/mcp" });
  });

  it("setServerEntry() updates an existing entry in place and reports an identical one as unchanged", () => {
    const first = setServerEntry('{"mcpServers":{"pi-session":{"command":"old"},"x":{"command":"x"}}}', ENTRY);
    assert.equal(first.outcome, "updated");
    assert.deepEqual(JSON.parse(first.text!).mcpServers, { "pi-session": ENTRY, x: { command: "x" } });
    const again = setServerEntry(first.text!, ENTRY);
    assert.equal(again.outcome, "unchanged");
    assert.equal(again.text, undefined);
  });

  it("setServerEntry() makes a new file from an empty one, as strict JSON", () => {
    const edit = setServerEntry("", ENTRY);
    assert.equal(edit.notStrictJson, false);
    assert.deepEqual(JSON.parse(edit.text!), { mcpServers: { "pi-session": ENTRY } });
  });

  it("removeServerEntry() removes only the entry, and says when there is none", () => {
    const added = setServerEntry(WITH_COMMENTS, ENTRY).text!;
    const removed = removeServerEntry(added);
    assert.equal(removed.outcome, "removed");
    const value = parse(removed.text!, [], { allowTrailingComma: true });
    assert.deepEqual(Object.keys(value.mcpServers), ["filesystem", "docs"]);
    assert.ok(removed.text!.includes("// my servers"));
    assert.equal(removeServerEntry(removed.text!).outcome, "absent");
  });

  it("a broken file or a non-object mcpServers is reported with where it breaks", () => {
    assert.throws(() => setServerEntry('{"mcpServers": {"a": }', ENTRY), /ValueExpected at line 1, column 22/);
    assert.throws(() => setServerEntry('{"mcpServers": []}', ENTRY), /"mcpServers" is not an object/);
    assert.throws(() => removeServerEntry("[1]"), /not a JSON object/);
  });

  it("a byte-order mark is kept and not taken for an error", () => {
    const added = setServerEntry('\uFEFF{"mcpServers": {}}\n', ENTRY).text!;
    assert.ok(added.startsWith("\uFEFF{"));
    assert.deepEqual(JSON.parse(added.slice(1)).mcpServers, { "pi-session": ENTRY });
    const removed = removeServerEntry(added).text!;
    assert.deepEqual(JSON.parse(removed.slice(1)), { mcpServers: {} });
    assert.ok(removed.startsWith("\uFEFF"));
  });

  it("entrySnippet() is a whole mcp.json with the entry", () => {
    assert.deepEqual(JSON.parse(entrySnippet(ENTRY)), { mcpServers: { "pi-session": ENTRY } });
  });
});

describe("editMcpJson()", () => {
  it("mcpJsonPath() is the agent dir's mcp.json, or the project's .pi/mcp.json", () => {
    assert.equal(mcpJsonPath({ agentDir: "/h/.pi/agent" }), "/h/.pi/agent/mcp.json");
    assert.equal(mcpJsonPath({ agentDir: "/h/.pi/agent", project: "/w/app" }), "/w/app/.pi/mcp.json");
  });

  it("creates a missing file and its folder, with no backup", async () => {
    const fs = new MemoryFileSystem();
    const done = await editMcpJson(fs, "/w/app/.pi/mcp.json", ENTRY);
    assert.equal(done.outcome, "added");
    assert.equal(done.backup, undefined);
    assert.deepEqual(JSON.parse((await fileText(fs, "/w/app/.pi/mcp.json"))!), { mcpServers: { "pi-session": ENTRY } });
  });

  it("backs the old file up beside it before changing it, never over an older backup", async () => {
    const fs = new MemoryFileSystem();
    await setFile(fs, "/a/mcp.json", WITH_COMMENTS);
    await setFile(fs, "/a/mcp.json.bak", "older backup");
    const done = await editMcpJson(fs, "/a/mcp.json", ENTRY);
    assert.equal(done.backup, "/a/mcp.json.bak.2");
    assert.equal((await fileText(fs, "/a/mcp.json.bak.2")), WITH_COMMENTS);
    assert.equal((await fileText(fs, "/a/mcp.json.bak")), "older backup");
    const removed = await editMcpJson(fs, "/a/mcp.json", undefined);
    assert.equal(removed.outcome, "removed");
    assert.equal((await fileText(fs, "/a/mcp.json"))!.includes("pi-session"), false);
  });

  it("leaves a broken file as it is and reports it (exit code 3)", async () => {
    const fs = new MemoryFileSystem();
    await setFile(fs, "/a/mcp.json", '{"mcpServers": {,}');
    await assert.rejects(editMcpJson(fs, "/a/mcp.json", ENTRY), (error: unknown) => {
      assert.ok(error instanceof SessionError);
      assert.equal(error.exitCode, 3);
      assert.match(error.message, /^Cannot edit \/a\/mcp\.json: /);
      return true;
    });
    assert.equal((await fileText(fs, "/a/mcp.json")), '{"mcpServers": {,}');
    assert.equal(await fileText(fs, "/a/mcp.json.bak"), undefined);
  });

  it("uninstalling from a missing file changes nothing", async () => {
    const fs = new MemoryFileSystem();
    assert.equal((await editMcpJson(fs, "/a/mcp.json", undefined)).outcome, "absent");
    assert.equal(await fileText(fs, "/a/mcp.json"), undefined);
  });
});
