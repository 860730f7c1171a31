import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AGENT_DIR, CWD, memoryFs, readText, runCli, writeText } from "./_harness.ts";

const GLOBAL = `${AGENT_DIR}/mcp.json`;

describe("pi-session mcp --install/--uninstall/--print", () => {
  it("--print shows the mcp.json entry with the server flags given, and writes nothing", async () => {
    const fs = memoryFs();
    const r = await runCli(["mcp", "--print", "--all", "--max-chars", "40000", "--no-redact"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      mcpServers: { "pi-session": { command: "pi-session", args: ["mcp", "--all", "--max-chars", "40000", "--no-redact"], description: "Search and read past pi sessions (pi-session)" } },
    });
    assert.equal(await fs.stat(GLOBAL), null);
  });

  it("--install writes the agent dir's mcp.json, keeping other servers and comments; --uninstall takes it out", async () => {
    const fs = memoryFs();
    const before = '{\n  // servers\n  "mcpServers": {\n    "docs": { "url": "https://example.com/mcp" },\n  },\n}\n';
    await writeText(fs, GLOBAL, before);
    const r = await runCli(["mcp", "--install"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Added the pi-session server in ${GLOBAL} \\(the old file is at ${GLOBAL}\\.bak\\)`));
    assert.match(r.stderr, /comments or trailing commas: pi 1\.6 reads mcp\.json as strict JSON/);
    const after = await readText(fs, GLOBAL);
    assert.ok(after.includes("// servers") && after.includes('"docs"') && after.includes('"pi-session": {'));
    assert.equal(await readText(fs, `${GLOBAL}.bak`), before);
    const again = await runCli(["mcp", "--install", "--json"], { fs });
    assert.deepEqual(JSON.parse(again.stdout), { schemaVersion: 1, path: GLOBAL, outcome: "unchanged", backup: null });
    const removed = await runCli(["mcp", "--uninstall"], { fs });
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal((await readText(fs, GLOBAL)).includes("pi-session"), false);
  });

  it("--install --project writes .pi/mcp.json of the cwd; PI_CODING_AGENT_DIR moves the global one", async () => {
    const fs = memoryFs();
    assert.equal((await runCli(["mcp", "--install", "--project"], { fs })).code, 0);
    assert.equal(JSON.parse(await readText(fs, `${CWD}/.pi/mcp.json`)).mcpServers["pi-session"].command, "pi-session");
    const r = await runCli(["mcp", "--install"], { fs, env: { PI_CODING_AGENT_DIR: "/elsewhere/agent" } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok((await readText(fs, "/elsewhere/agent/mcp.json")).includes("pi-session"));
  });

  it("a broken mcp.json is reported with exit code 3 and left as it is", async () => {
    const fs = memoryFs();
    await writeText(fs, GLOBAL, '{"mcpServers": {"a": {}');
    const r = await runCli(["mcp", "--install"], { fs });
    assert.equal(r.code, 3);
    assert.match(r.stderr, new RegExp(`pi-session: Cannot edit ${GLOBAL}: CloseBraceExpected at line 1, column 24\\nhint: Fix the file by hand`));
    assert.equal(await readText(fs, GLOBAL), '{"mcpServers": {"a": {}');
    assert.equal(await fs.stat(`${GLOBAL}.bak`), null);
  });

  it("bad flag combinations and budgets are usage errors", async () => {
    assert.match((await runCli(["mcp", "--install", "--uninstall"])).stderr, /one at a time/);
    assert.match((await runCli(["mcp", "--project"])).stderr, /--project goes with --install/);
    const r = await runCli(["mcp", "--max-chars", "10"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--max-chars must be a whole number of at least 1000, not "10"/);
  });
});
