/**
 * Every `--json` output against its schema in docs/schema/: each command runs for real on the
 * example sessions (examples/agent, examples/broken, copied into memory), and what it prints
 * must conform, and every schema file must be used by one of the runs. A new command with
 * --json needs a schema and a row in READING or WRITING.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Schema, validate } from "../_json-schema.ts";
import { AGENT_DIR, memoryFs, runCli, writeText } from "./_harness.ts";
import type { FileSystem } from "../../src/io/file-system.ts";

const root = new URL("../..", import.meta.url).pathname;
const SCHEMAS = join(root, "docs", "schema");
const WEBSHOP = "/home/dev/webshop";
const CART = "019c4a1e";

function schema(name: string): Schema {
  return JSON.parse(readFileSync(join(SCHEMAS, `${name}.schema.json`), "utf8"));
}

/** Copies a folder of the repository into the memory file system. */
async function copyInto(fs: FileSystem, from: string, to: string): Promise<void> {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    if (statSync(source).isDirectory()) await copyInto(fs, source, `${to}/${name}`);
    else await writeText(fs, `${to}/${name}`, readFileSync(source));
  }
}

async function examples(): Promise<FileSystem> {
  const fs = memoryFs();
  await copyInto(fs, join(root, "examples", "agent"), AGENT_DIR);
  await copyInto(fs, join(root, "examples", "broken"), "/work/broken");
  return fs;
}

/** [schema, argv, exit code expected]: every command's JSON, read-only ones first. */
const READING: [string, string[], number][] = [
  ["list", ["list", "--json"], 0],
  ["list", ["list", "--all", "--json"], 0],
  ["info", ["info", CART, "--json"], 0],
  ["info", ["info", "legacy-v1-session", "--json"], 0],
  ["info", ["info", "019c4a52", "--json"], 0],
  ["show", ["show", CART, "--json"], 0],
  ["tree", ["tree", CART, "--json"], 0],
  ["tree", ["tree", CART, "--json", "--filter", "all"], 0],
  ["context", ["context", CART], 0],
  ["context", ["context", "legacy-v2-session", "--format", "json"], 0],
  ["context-llm", ["context", CART, "--format", "llm"], 0],
  ["stats", ["stats", "--all", "--json", "--tz", "UTC"], 0],
  ["stats", ["stats", "--all", "--json", "--by", "session", "--breakdown", "--explain"], 0],
  ["stats", ["stats", "--json", "--by", "hour", "--tz", "UTC"], 0],
  ["blocks", ["blocks", "--all", "--json"], 0],
  ["search", ["search", "discount", "--all", "--json"], 0],
  ["files", ["files", "src/cart.ts", "--json"], 0],
  ["check", ["check", `${AGENT_DIR}/sessions`, "--json"], 1],
  ["check", ["check", "/work/broken", "--json"], 1],
  ["index", ["index", "--json"], 0],
  ["recent", ["recent", "--json"], 0],
  ["recent", ["--cwd", "/nowhere", "recent", "--json"], 1],
  ["du", ["du", "--json"], 0],
  ["name", ["name", CART, "--json"], 0],
  ["label", ["label", CART, "1a2b1111", "--json"], 1],
  ["prune", ["prune", "--older-than", "30d", "--dry-run", "--json"], 0],
  ["repair", ["repair", "/work/broken", "--dry-run", "--json"], 1],
  ["move", ["move", WEBSHOP, "/home/dev/shop", "--dry-run", "--json"], 0],
  ["otel", ["otel", "--all", "--dry-run", "--json"], 0],
];

/** Commands that write, in an order where each still finds what it needs. */
const WRITING: [string, string[], number][] = [
  ["name", ["name", CART, "Checkout", "--json"], 0],
  ["label", ["label", CART, "1a2b1111", "start", "--json"], 0],
  ["branch-out", ["fork", CART, "--at", "1a2b5555", "--json"], 0],
  ["branch-out", ["clone", CART, "--json"], 0],
  ["export", ["export", CART, "--format", "jsonl", "-o", "/work/out/cart.jsonl", "--mkdir", "--json"], 0],
  ["export", ["export", CART, "--format", "html", "--redact", "-o", "/work/out/cart.html", "--json"], 0],
  ["migrate", ["migrate", `${AGENT_DIR}/sessions/--home-dev-old-project--`, "--dry-run", "--json"], 0],
  ["migrate", ["migrate", `${AGENT_DIR}/sessions/--home-dev-old-project--`, "--json"], 0],
  ["repair", ["repair", "/work/broken", "--json"], 1],
  ["move", ["move", "/home/dev/old-project", "/home/dev/older-project", "--json"], 0],
  ["delete", ["delete", "019c4a6b", "--yes", "--json"], 0],
  ["prune", ["prune", "--older-than", "2025-12-01", "--yes", "--json"], 0],
  ["mcp-install", ["mcp", "--install", "--json"], 0],
  ["mcp-install", ["mcp", "--install", "--json"], 0],
  ["mcp-install", ["mcp", "--uninstall", "--json"], 0],
];

test("every --json output conforms to its schema in docs/schema/", async () => {
  const fs = await examples();
  const used = new Set<string>();
  for (const [name, argv, code] of [...READING, ...WRITING]) {
    const run = await runCli(["--cwd", WEBSHOP, ...argv], { fs });
    const label = `pi-session ${argv.join(" ")}`;
    assert.equal(run.code, code, `${label} exited ${run.code}: ${run.stderr}`);
    const value = JSON.parse(run.stdout);
    assert.deepEqual(validate(schema(name), value), [], `${label} against ${name}.schema.json`);
    used.add(name);
  }
  const files = readdirSync(SCHEMAS).filter((f) => f.endsWith(".schema.json")).map((f) => f.replace(/\.schema\.json$/, ""));
  assert.deepEqual(files.filter((f) => !used.has(f)), [], "schemas no command output was checked against");
});

test("the schemas catch a changed shape: a missing field, a new one, a wrong type", async () => {
  const fs = await examples();
  const stats = JSON.parse((await runCli(["--cwd", WEBSHOP, "stats", "--json"], { fs })).stdout);
  const { copies: _copies, ...without } = stats;
  assert.deepEqual(validate(schema("stats"), without), ['$: missing required property "copies"']);
  assert.deepEqual(validate(schema("stats"), { ...stats, extra: 1 }), ['$: unexpected property "extra"']);
  const list = JSON.parse((await runCli(["--cwd", WEBSHOP, "list", "--json"], { fs })).stdout);
  list[0].messageCount = "5";
  assert.deepEqual(validate(schema("list"), list), ["$[0].messageCount: expected integer, got string"]);
});
