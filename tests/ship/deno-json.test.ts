/**
 * deno.json (JSR) and package.json (npm) describe one library: the same version and the same
 * entry points, npm's being tsc's output of the source files that JSR publishes as they are.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";

const root = new URL("../..", import.meta.url).pathname;
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const denoJson = JSON.parse(readFileSync(join(root, "deno.json"), "utf8"));
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);

describe("deno.json", () => {
  it("has the version of package.json", () => {
    assert.equal(denoJson.version, packageJson.version);
  });

  it("names a JSR package (@scope/name) with a license", () => {
    assert.match(denoJson.name, /^@[a-z0-9-]+\/[a-z0-9-]+$/);
    assert.equal(denoJson.license, packageJson.license);
  });

  it("exports the entry points of package.json, from the sources they are built from", () => {
    const npmEntries = Object.keys(packageJson.exports).filter((key) => key !== "./package.json");
    assert.deepEqual(Object.keys(denoJson.exports).sort(), npmEntries.sort());
    for (const [entry, source] of Object.entries<string>(denoJson.exports)) {
      assert.ok(existsSync(join(root, source)), `${entry}: ${source} does not exist`);
      const built = source.replace(/^\.\/src\//, "./dist/lib/").replace(/\.ts$/, "");
      assert.deepEqual(packageJson.exports[entry], { types: `${built}.d.ts`, default: `${built}.js` }, entry);
    }
  });

  it("serves pi-session/compat through its export: a synchronous append is there at once", { skip: isNode ? false : "runs under Node; it drives Deno", timeout: 120_000 }, async () => {
    const deno = join(root, "node_modules", ".bin", "deno");
    const script = `import { SessionManager } from "${denoJson.name}/compat";
const session = SessionManager.inMemory("/work");
const id = session.appendMessage({ role: "user", content: "hi", timestamp: 0 });
console.log(JSON.stringify([typeof id, session.getEntry(id)?.type, session.getLeafId() === id]));`;
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(deno, ["eval", "--ext=ts", script], { cwd: root, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: stdout + stderr });
      });
    });
    assert.equal(code, 0, output);
    assert.deepEqual(JSON.parse(output.trim()), ["string", "message", true]);
  });

  it("passes JSR's own checks: `deno publish --dry-run` (offline, no slow types allowed)", { skip: isNode ? false : "runs under Node; it drives Deno", timeout: 300_000 }, async () => {
    const deno = join(root, "node_modules", ".bin", "deno");
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(deno, ["publish", "--dry-run", "--allow-dirty"], { cwd: root, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: stdout + stderr });
      });
    });
    assert.equal(code, 0, output);
    assert.match(output, /Dry run complete/);
  });
});
