/**
 * The npm package as a user gets it: `npm pack` (its `prepack` builds dist/), installed from
 * the tarball into an empty project, then used as a library from a .mjs script, type-checked
 * from a TypeScript consumer, and run through `npx`. Runs under Node only: it drives npm once.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { buildSessionContext, parseSession, SessionTree } from "../../src/mod.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const agentDir = join(root, "examples", "agent");
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function sessionFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(dir, name))
    .sort();
}

/** The context of each sample at its last entry, from the TypeScript sources. */
function expectedContexts(paths: string[]) {
  return paths.map((path) => {
    const file = parseSession(readFileSync(path));
    const leafId = new SessionTree(file.entries).leafId;
    return { leafId, context: JSON.parse(JSON.stringify(buildSessionContext(file.entries, leafId))) };
  });
}

// Uses the root export and every subpath, as a user's script would.
const CONSUMER_MJS = `
import { readFileSync } from "node:fs";
import { SessionManager, buildSessionContext, parseSession } from "pi-session";
import { SessionTree } from "pi-session/core";
import { readContextFromFile } from "pi-session/session";
import { detectFileSystem } from "pi-session/io";

const results = [];
for (const path of process.argv.slice(2)) {
  const file = parseSession(readFileSync(path));
  const session = await SessionManager.open(path);
  const fast = await readContextFromFile(detectFileSystem(), path);
  results.push({
    leafId: session.getLeafId(),
    treeLeafId: new SessionTree(file.entries).leafId,
    context: session.buildSessionContext(),
    fromParse: buildSessionContext(file.entries, session.getLeafId()),
    fast: fast.context,
  });
}
process.stdout.write(JSON.stringify(results));
`;

// pi's synchronous API from pi-session/compat: an append is on disk and in memory when it returns.
const COMPAT_MJS = `
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { SessionManager, loadEntriesFromFile } from "pi-session/compat";

const dir = mkdtempSync(join(tmpdir(), "compat-"));
const session = SessionManager.create("/work", dir);
const id = session.appendMessage({ role: "user", content: "hi", timestamp: 0 });
const usage = session.appendUsage("cache_warm", "p", "m", { input: 1, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
const reopened = SessionManager.open(session.getSessionFile());
process.stdout.write(JSON.stringify({
  id: typeof id,
  entry: session.getEntry(id)?.type,
  usage: usage.type,
  lines: readFileSync(session.getSessionFile(), "utf8").trim().split("\\n").length,
  reopened: reopened.getEntries().map((e) => e.id),
  expected: [id, usage.id],
  loaded: loadEntriesFromFile(session.getSessionFile()).length,
  listed: (await SessionManager.list("/work", dir)).length,
}));
`;

// Compiles only if the declarations carry real types: the expect-error line fails on \`any\`.
const CONSUMER_MTS = `
import { SessionManager as Compat } from "pi-session/compat";
import { SessionManager, buildSessionContext, parseSession, type SessionContext } from "pi-session";
import { SessionTree } from "pi-session/core";
import { readContextFromFile } from "pi-session/session";
import { detectFileSystem, type FileSystem } from "pi-session/io";

export async function contexts(path: string, bytes: Uint8Array): Promise<SessionContext[]> {
  const file = parseSession(bytes);
  const leafId: string | null = new SessionTree(file.entries).leafId;
  const session = await SessionManager.open(path);
  // @ts-expect-error a leaf id is a string or null, never a number
  const wrong: number = session.getLeafId();
  const fs: FileSystem = detectFileSystem();
  const { context } = await readContextFromFile(fs, path);
  const compat = Compat.open(path);
  const id: string = compat.appendCustomEntry("x");
  // @ts-expect-error compat's appends return the id itself, not a Promise
  const promised: Promise<string> = compat.appendCustomEntry("y", id);
  return [buildSessionContext(file.entries, leafId), session.buildSessionContext(), context];
}
`;

const TSCONFIGS: Record<string, object> = {
  node16: { module: "node16", moduleResolution: "node16" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
};

describe("npm package", { skip: isNode ? false : "runs under Node only; it drives npm and Node itself" }, () => {
  let work: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let packedFiles: string[];

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-npm-"));
    project = join(work, "consumer");
    mkdirSync(project);
    // The user's machine: no catalog in the real home, no colour. npm keeps its real cache.
    env = { ...process.env, XDG_CACHE_HOME: join(work, "cache"), NO_COLOR: "1", TZ: "UTC" };

    const packed = await exec("npm", ["pack", "--json", "--pack-destination", work], root, env);
    assert.equal(packed.code, 0, `npm pack failed:\n${packed.stderr}`);
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    packedFiles = info.files.map((file) => file.path).sort();

    const init = await exec("npm", ["init", "-y"], project, env);
    assert.equal(init.code, 0, init.stderr);
    const install = await exec("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(work, info.filename)], project, env);
    assert.equal(install.code, 0, `npm install of the tarball failed:\n${install.stderr}`);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("ships the built CLI and library, and no TypeScript sources, tests or scripts", () => {
    const unexpected = packedFiles.filter((path) =>
      !["package.json", "README.md", "LICENSE", "dist/pi-session.mjs"].includes(path) &&
      !/^dist\/cli\/[^/]+\.mjs$/.test(path) &&
      !/^dist\/lib\/.+\.(js|d\.ts)$/.test(path)
    );
    assert.deepEqual(unexpected, [], "files the package should not ship");
    for (const path of ["dist/pi-session.mjs", "dist/lib/mod.js", "dist/lib/mod.d.ts", "dist/lib/core/mod.js", "dist/lib/session/mod.js", "dist/lib/io/mod.js"]) {
      assert.ok(packedFiles.includes(path), `${path} is missing from the package`);
    }
    assert.ok(readFileSync(join(project, "node_modules/pi-session/dist/pi-session.mjs"), "utf8").startsWith("#!/usr/bin/env node\n"));
  });

  it("imports nothing with a .ts extension at run time", () => {
    const installed = join(project, "node_modules", "pi-session", "dist");
    const scripts = readdirSync(installed, { recursive: true, encoding: "utf8" }).filter((name) => /\.m?js$/.test(name));
    assert.ok(scripts.length > 10, `only ${scripts.length} scripts installed`);
    const specifier = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
    const tsImports = scripts.flatMap((name) =>
      // Block comments go first: the doc comments' examples import sources by design.
      [...readFileSync(join(installed, name), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").matchAll(specifier)]
        .map((match) => match[1])
        .filter((path) => /\.[cm]?ts$/.test(path))
        .map((path) => `${name} imports ${path}`)
    );
    assert.deepEqual(tsImports, []);
  });

  it("builds the same contexts as the sources when imported by its package name", async () => {
    const samples = sessionFiles(join(agentDir, "sessions"));
    assert.ok(samples.length >= 3, `only ${samples.length} sample sessions found`);
    writeFileSync(join(project, "consumer.mjs"), CONSUMER_MJS);
    const run = await exec(process.execPath, ["consumer.mjs", ...samples], project, env);
    assert.equal(run.code, 0, run.stderr);
    const results = JSON.parse(run.stdout);
    const expected = expectedContexts(samples);
    assert.equal(results.length, samples.length);
    for (const [i, result] of results.entries()) {
      const { leafId, context } = expected[i];
      assert.ok(context.messages.length > 0, `${samples[i]} has an empty context`);
      assert.equal(result.leafId, leafId, samples[i]);
      assert.equal(result.treeLeafId, leafId, samples[i]);
      assert.deepEqual(result.context, context, `SessionManager, ${samples[i]}`);
      assert.deepEqual(result.fromParse, context, `parseSession + buildSessionContext, ${samples[i]}`);
      assert.deepEqual(result.fast, context, `readContextFromFile, ${samples[i]}`);
    }
  });

  it("serves pi-session/compat: pi's synchronous SessionManager, appends on disk when they return", async () => {
    writeFileSync(join(project, "compat.mjs"), COMPAT_MJS);
    const run = await exec(process.execPath, ["compat.mjs"], project, env);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.deepEqual(result, { id: "string", entry: "message", usage: "usage", lines: 3, reopened: result.expected, expected: result.expected, loaded: 3, listed: 1 });
    assert.ok(packedFiles.includes("dist/lib/compat/mod.js") && packedFiles.includes("dist/lib/compat/mod.d.ts"));
  });

  for (const [name, options] of Object.entries(TSCONFIGS)) {
    it(`type-checks a TypeScript consumer against the shipped declarations (moduleResolution ${name})`, async () => {
      const compilerOptions = { ...options, target: "es2022", lib: ["es2022", "dom"], strict: true, noEmit: true, skipLibCheck: false, types: [] };
      writeFileSync(join(project, "consumer.mts"), CONSUMER_MTS);
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: ["consumer.mts"] }));
      const check = await exec(join(root, "node_modules", ".bin", "tsc"), ["-p", `tsconfig.${name}.json`], project, env);
      assert.equal(check.code, 0, `tsc found errors:\n${check.stdout}${check.stderr}`);
    });
  }

  it("runs the CLI through npx: --version, list and context", async () => {
    const npx = (...args: string[]) => exec("npx", ["--no", "--", "pi-session", ...args], project, env);

    const version = await npx("--version");
    assert.equal(version.code, 0, version.stderr);
    assert.ok(version.stdout.split(/\s+/).includes(packageJson.version), `--version printed ${JSON.stringify(version.stdout)}`);

    const list = await npx("list", "--all", "--agent-dir", agentDir);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /019c4a1e/);

    const [sample] = sessionFiles(join(agentDir, "sessions", "--home-dev-webshop--"));
    const context = await npx("context", sample, "--json");
    assert.equal(context.code, 0, context.stderr);
    assert.deepEqual(JSON.parse(context.stdout), expectedContexts([sample])[0].context);
  });
});
