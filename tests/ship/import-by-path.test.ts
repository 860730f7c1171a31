/**
 * Deno and Bun users can import the library straight from a checkout: a script outside the
 * project imports src/mod.ts by its file URL and must build the same contexts as this process
 * does. Runs under Node only: it drives Deno and Bun itself.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { buildSessionContext, parseSession, SessionTree } from "../../src/mod.ts";

const root = new URL("../..", import.meta.url).pathname;
const libraryUrl = new URL("../../src/mod.ts", import.meta.url).href;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const bin = (name: string) => join(root, "node_modules", ".bin", name);

function exec(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: "1" };
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const samplesDir = join(root, "examples", "agent", "sessions");
const samples = readdirSync(samplesDir, { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => join(samplesDir, name))
  .sort();

/** What the script prints for each sample, computed here from the same sources. */
function expected() {
  return samples.map((path) => {
    const file = parseSession(readFileSync(path));
    const leafId = new SessionTree(file.entries).leafId;
    const context = buildSessionContext(file.entries, leafId);
    return { leafId, messages: context.messages.length, context: JSON.parse(JSON.stringify(context)) };
  });
}

const script = `
import { readFile } from "node:fs/promises";
import { SessionManager, buildSessionContext, parseSession } from ${JSON.stringify(libraryUrl)};

const results = [];
for (const path of ${JSON.stringify(samples)}) {
  const session = await SessionManager.open(path);
  const file = parseSession(await readFile(path));
  const context = buildSessionContext(file.entries, session.getLeafId());
  if (JSON.stringify(session.buildSessionContext()) !== JSON.stringify(context)) throw new Error("SessionManager disagrees on " + path);
  results.push({ leafId: session.getLeafId(), messages: context.messages.length, context });
}
console.log(JSON.stringify(results));
`;

describe("importing the library by path", { skip: isNode ? false : "runs under Node only; it drives Deno and Bun itself" }, () => {
  let work: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), "pi-session-import-"));
    writeFileSync(join(work, "use-library.mjs"), script);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("finds sample sessions with non-empty contexts", () => {
    assert.ok(samples.length >= 3, `only ${samples.length} samples in ${samplesDir}`);
    for (const [i, result] of expected().entries()) assert.ok(result.messages > 0, `${samples[i]} has an empty context`);
  });

  const runtimes: [string, () => [string, string[]]][] = [
    // The library's one npm import (jsonc-parser) resolves from the checkout's node_modules.
    // With no deno.json or package.json around the script, Deno does that only when told to.
    ["Deno", () => [bin("deno"), ["run", "-A", "--quiet", "--node-modules-dir=manual", "use-library.mjs"]]],
    ["Bun", () => [bin("bun"), ["use-library.mjs"]]],
  ];
  for (const [name, command] of runtimes) {
    it(`builds the same contexts under ${name} as under Node`, async () => {
      const [cmd, args] = command();
      const run = await exec(cmd, args, work);
      assert.equal(run.code, 0, `${name} failed:\n${run.stderr}`);
      assert.deepEqual(JSON.parse(run.stdout), expected());
    });
  }
});
