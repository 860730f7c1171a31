/**
 * End to end: `otel` on the shipped samples writes byte-identical OTLP/JSON under Node, Deno,
 * Bun and the compiled binary, and the binary's protobuf requests to a loopback receiver decode
 * to the same spans. Runs under Node only (it drives the other runtimes).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { compileArgs } from "../../scripts/compile.ts";
import { decodeRequest, startReceiver } from "../otel/_receiver.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const bin = (name: string) => join(root, "node_modules", ".bin", name);

function exec(command: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("otel end to end", { skip: isNode ? false : "runs under Node; it drives Node, Deno, Bun and the binary itself" }, () => {
  let work: string;
  let binary: string;
  const env = () => ({ PATH: process.env.PATH ?? "", HOME: join(work, "home"), TZ: "UTC", NO_COLOR: "1" });

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-otel-e2e-"));
    cpSync(join(root, "examples"), join(work, "examples"), { recursive: true });
    binary = join(work, "pi-session");
    const built = await exec(bin("bun"), compileArgs(binary), { PATH: process.env.PATH ?? "", HOME: work });
    assert.equal(built.code, 0, built.stderr);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("writes the same OTLP/JSON on node, deno, bun and the binary (with and without a worker thread), and the binary sends the same spans as protobuf", async () => {
    const argv = ["otel", "--all", "--out", "-", "--agent-dir", join(work, "examples/agent")];
    const worker = { PI_SESSION_OTEL_WORKERS: "1" };
    const runtimes: [string, string, string[], Record<string, string>?][] = [
      ["node", process.execPath, ["--import", "tsx", join(root, "src/cli/main.ts")]],
      ["deno", bin("deno"), ["run", "-A", "--quiet", join(root, "src/cli/main.ts")]],
      ["deno with a worker", bin("deno"), ["run", "-A", "--quiet", join(root, "src/cli/main.ts")], worker],
      ["bun", bin("bun"), [join(root, "src/cli/main.ts")]],
      ["binary", binary, []],
      ["binary with a worker", binary, [], worker],
    ];
    const outputs: string[] = [];
    for (const [name, command, prefix, extra] of runtimes) {
      const result = await exec(command, [...prefix, ...argv], { ...env(), ...extra });
      assert.equal(result.code, 0, `${name}: ${result.stderr}`);
      outputs.push(result.stdout);
    }
    assert.ok(outputs[0].length > 1000);
    for (const [i, [name]] of runtimes.entries()) assert.ok(outputs[i] === outputs[0], `${name} writes what node writes`);
    const written = outputs[0].trimEnd().split("\n").flatMap((line) => decodeRequest(new TextEncoder().encode(line), "application/json"));

    const receiver = await startReceiver();
    try {
      const sent = await exec(binary, ["otel", "--all", "--endpoint", receiver.url, "--agent-dir", join(work, "examples/agent")], env());
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(receiver.requests[0].contentType, "application/x-protobuf");
      const key = (s: { spanId: string; traceId: string; name: string; attributes: unknown }) => JSON.stringify([s.traceId, s.spanId, s.name, s.attributes]);
      assert.deepEqual(receiver.accepted().map(key).sort(), written.map(key).sort());
    } finally {
      await receiver.close();
    }
  });
});
