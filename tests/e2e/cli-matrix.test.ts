/**
 * End to end: the same commands on the shipped samples under Node, Deno, Bun and the
 * compiled binary must print byte-identical output with the same exit codes, and no
 * read command may change a file. `--version` is the one planned difference: the binary
 * names its commit, the sources say `(source)`. Runs under Node only (it drives the other
 * runtimes).
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { compileArgs } from "../../scripts/compile.ts";
import { VERSION } from "../../src/version.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const bin = (name: string) => join(root, "node_modules", ".bin", name);

function exec(command: string, args: string[], env: Record<string, string>, cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function hashTree(dir: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else hashes.set(path, createHash("sha256").update(readFileSync(path)).digest("hex") + ":" + statSync(path).mtimeMs);
    }
  };
  walk(dir);
  return hashes;
}

describe("CLI end to end", { skip: isNode ? false : "runs under Node; it drives Node, Deno, Bun and the binary itself" }, () => {
  let work: string;
  let binary: string;
  let env: Record<string, string>;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-e2e-"));
    cpSync(join(root, "examples"), join(work, "examples"), { recursive: true });
    binary = join(work, "pi-session");
    const built = await exec(bin("bun"), compileArgs(binary), { PATH: process.env.PATH ?? "", HOME: work });
    assert.equal(built.code, 0, built.stderr);
    env = { PATH: process.env.PATH ?? "", HOME: join(work, "home"), TZ: "UTC", NO_COLOR: "1" };
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const runtimes: [string, () => [string, string[]]][] = [
    ["node", () => [process.execPath, ["--import", "tsx", join(root, "src/cli/main.ts")]]],
    ["deno", () => [bin("deno"), ["run", "-A", "--quiet", join(root, "src/cli/main.ts")]]],
    ["bun", () => [bin("bun"), [join(root, "src/cli/main.ts")]]],
    ["binary", () => [binary, []]],
  ];

  const agent = () => ["--agent-dir", join(work, "examples/agent")];
  const matrix: [string, () => string[]][] = [
    ["list --all", () => ["list", "--all", ...agent()]],
    ["list --all --json", () => ["list", "--all", "--json", ...agent()]],
    ["list --ndjson --sort messages", () => ["list", "--all", "--ndjson", "--sort", "messages", ...agent()]],
    ["list for a cwd", () => ["list", "--cwd", "/home/dev/webshop", ...agent()]],
    ["recent", () => ["recent", "--cwd", "/home/dev/webshop", ...agent()]],
    ["info", () => ["info", "019c4a1e", ...agent()]],
    ["info --json", () => ["info", "019c4a1e", "--json", ...agent()]],
    ["info legacy v1", () => ["info", "legacy-v1", "--json", ...agent()]],
    ["context", () => ["context", "019c4a1e", ...agent()]],
    ["context --format llm", () => ["context", "019c4a6b", "--format", "llm", ...agent()]],
    ["context --format text at a label", () => ["context", "019c4a1e", "--format", "text", "--leaf", "label:rounding-bug", ...agent()]],
    ["context legacy v2", () => ["context", "legacy-v2", ...agent()]],
    ["tree", () => ["tree", "019c4a1e", ...agent()]],
    ["tree --filter all", () => ["tree", "019c4a1e", "--filter", "all", ...agent()]],
    ["show", () => ["show", "019c4a1e", ...agent()]],
    ["show --format markdown", () => ["show", "019c4a8d", "--format", "markdown", ...agent()]],
    ["check samples", () => ["check", join(work, "examples/agent/sessions"), ...agent()]],
    ["check broken", () => ["check", join(work, "examples/broken"), "--json", ...agent()]],
    ["completions bash", () => ["completions", "bash"]],
    ["ambiguous prefix", () => ["info", "019c4a", ...agent()]],
    ["unknown session", () => ["info", "nosuchsession", ...agent()]],
    ["not a session", () => ["info", join(work, "examples/broken/not-a-session.jsonl")]],
  ];

  it("prints the version with the commit in the binary and (source) elsewhere, the same for -V and through commander", async () => {
    let commit = process.env.PI_SESSION_COMMIT?.trim() || "unknown";
    if (!process.env.PI_SESSION_COMMIT?.trim()) {
      try {
        commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
      } catch {
        // No git here: the build could not know the commit either.
      }
    }
    // `--no-color --version` skips main.ts's fast path and reaches commander's version option.
    for (const argv of [["--version"], ["-V"], ["--no-color", "--version"]]) {
      for (const [name, command] of runtimes) {
        const [cmd, prefix] = command();
        const result = await exec(cmd, [...prefix, ...argv], env);
        assert.equal(result.code, 0, `${name} ${argv.join(" ")}: ${result.stderr}`);
        const expected = `pi-session ${VERSION} (${name === "binary" ? commit : "source"})\n`;
        assert.equal(result.stdout, expected, `${name} ${argv.join(" ")}`);
      }
    }
  });

  it("prints byte-identical output on every runtime, and read commands change nothing", async () => {
    const before = hashTree(join(work, "examples"));
    let compared = 0;
    for (const [label, argv] of matrix) {
      const results = [];
      for (const [name, command] of runtimes) {
        const [cmd, prefix] = command();
        results.push({ name, ...(await exec(cmd, [...prefix, ...argv()], env)) });
      }
      const [first, ...rest] = results;
      for (const other of rest) {
        assert.equal(other.code, first.code, `${label}: exit code ${other.name}=${other.code} vs ${first.name}=${first.code}\n${other.stderr}`);
        assert.equal(other.stdout, first.stdout, `${label}: stdout of ${other.name} differs from ${first.name}`);
        compared++;
      }
      if (!label.includes("ambiguous") && !label.includes("unknown") && !label.includes("not a session") && !label.startsWith("check")) {
        assert.equal(first.code, 0, `${label} failed: ${first.stderr}`);
        assert.notEqual(first.stdout, "", `${label} printed nothing`);
      }
    }
    assert.deepEqual(hashTree(join(work, "examples")), before, "a read command changed a file");
    console.log(`e2e: ${matrix.length} commands x ${runtimes.length} runtimes, ${compared} outputs compared byte for byte`);
  });

  it("writes every byte into a full non-blocking pipe before it exits (the rest goes through a stream, which the binary waits for)", { skip: process.platform === "linux" ? false : "sets the pipe's flag with Linux's fcntl values" }, async () => {
    // A session whose transcript (300 KB) is far more than a pipe holds (64 KB) while its reader sleeps.
    const session = join(work, "long.jsonl");
    const header = { type: "session", version: 3, id: "0a1b2c3d-0000-4000-8000-00000000abcd", timestamp: "2026-03-02T09:00:00.000Z", cwd: "/home/dev/long" };
    const message = { type: "message", id: "e0000001", parentId: null, timestamp: "2026-03-02T09:00:01.000Z", message: { role: "user", content: "word ".repeat(60_000), timestamp: 1772442001000 } };
    writeFileSync(session, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
    const direct = await exec(binary, ["show", session], env);
    assert.equal(direct.code, 0, direct.stderr);
    assert.ok(direct.stdout.length > 256 * 1024, `${direct.stdout.length} characters`);
    const out = join(work, "through-pipe.txt");
    const script = join(root, "tests/e2e/_nonblocking-stdout.ts");
    const piped = await exec("sh", ["-c", '"$0" "$1" "$2" show "$3" | { sleep 1; cat; } > "$4"', bin("bun"), script, binary, session, out], env);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(readFileSync(out, "utf8"), direct.stdout);
  });
});
