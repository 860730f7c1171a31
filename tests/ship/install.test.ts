/**
 * scripts/install.sh end to end: a release directory made like `npm run release` makes it
 * (only this machine's executable, compiled here, plus SHA256SUMS) is installed into a
 * temporary prefix and home; checksums, downgrades and completions are checked. Older
 * releases are faked with tiny shell scripts that print a version. Runs under Node only.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { compileArgs } from "../../scripts/compile.ts";
import { hostTarget, releaseFileName } from "../../scripts/release-targets.ts";
import { VERSION } from "../../src/version.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const host = hostTarget(process.platform, process.arch);
const skip = !isNode
  ? "runs under Node only: it compiles the executable and drives the shell script"
  : !host || host.os === "windows"
  ? `install.sh has no release for ${process.platform}-${process.arch}`
  : false;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(command: string, args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const options = { cwd: root, env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...env }, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 };
    execFile(command, args, options, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** VERSION for use inside a regular expression. */
const versionPattern = VERSION.replaceAll(".", "\\.");
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** A release directory holding one file for this machine (copied from `from`) and its SHA256SUMS. */
function releaseDir(dir: string, version: string, from: string): string {
  mkdirSync(dir, { recursive: true });
  const name = releaseFileName(version, host!);
  copyFileSync(from, join(dir, name));
  writeFileSync(join(dir, "SHA256SUMS"), `${sha256(join(dir, name))}  ${name}\n`);
  return join(dir, name);
}

describe("scripts/install.sh", { skip }, () => {
  let work: string;
  let release: string;
  const fakes = new Map<string, string>();

  /** A release of `version` whose "executable" is a script answering `--version` and `completions`. */
  function fakeRelease(version: string): string {
    const existing = fakes.get(version);
    if (existing) return existing;
    const script = join(work, `fake-${version}.sh`);
    writeFileSync(script, `#!/bin/sh\ncase "$1" in\n  --version) echo "pi-session ${version} (fake)" ;;\n  completions) echo "# fake $2 completions" ;;\n  *) exit 3 ;;\nesac\n`, { mode: 0o755 });
    const dir = join(work, `release-${version}`);
    releaseDir(dir, version, script);
    fakes.set(version, dir);
    return dir;
  }

  let prefixes = 0;
  const freshPrefix = () => join(work, `prefix-${++prefixes}`);
  const install = (args: string[], shell = "/bin/sh") => exec("sh", [join(root, "scripts/install.sh"), ...args], { HOME: join(work, "home"), SHELL: shell });
  const versionAt = async (prefix: string) => (await exec(join(prefix, "bin", "pi-session"), ["--version"])).stdout;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-install-"));
    mkdirSync(join(work, "home"));
    const built = join(work, "pi-session");
    const compiled = await exec(join(root, "node_modules", ".bin", "bun"), compileArgs(built), { HOME: work });
    assert.equal(compiled.code, 0, compiled.stderr);
    release = join(work, "release");
    releaseDir(release, VERSION, built);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("installs this machine's release into PREFIX/bin, with bash completions where it says", async () => {
    const prefix = freshPrefix();
    const result = await install(["--prefix", prefix, release], "/bin/bash");
    assert.equal(result.code, 0, result.stderr);
    const binary = join(prefix, "bin", "pi-session");
    assert.match(result.stdout, new RegExp(`installed pi-session ${VERSION}: ${binary}\n`));

    const said = /^bash completions: (.+)$/m.exec(result.stdout)?.[1];
    assert.equal(said, join(prefix, "share/bash-completion/completions/pi-session"));
    assert.match(readFileSync(said!, "utf8"), /^# bash completion for pi-session/);
    assert.match(result.stdout, new RegExp(`${join(prefix, "bin")} is not on your PATH; to add it:\n.*~/.bashrc`));

    assert.match(await versionAt(prefix), new RegExp(`^pi-session ${versionPattern} \\((?:[0-9a-f]{4,}|unknown)\\)\n$`));
    const listed = await exec(binary, ["list", "--all", "--agent-dir", join(root, "examples/agent")], { HOME: join(work, "home"), NO_COLOR: "1" });
    assert.equal(listed.code, 0, listed.stderr);
    for (const id of ["019c4a1e", "019c4a8d", "legacy-v1"]) assert.ok(listed.stdout.includes(id), `list --all lacks ${id}:\n${listed.stdout}`);
    assert.deepEqual(readdirSync(join(prefix, "bin")), ["pi-session"], "no staging file left behind");
  });

  it("defaults to ~/.local and puts zsh and fish completions under ~/.local/share", async () => {
    const home = join(work, "home");
    for (const [shell, file] of [["/usr/bin/zsh", "zsh/site-functions/_pi-session"], ["/usr/bin/fish", "fish/vendor_completions.d/pi-session.fish"]]) {
      const result = await install([release], shell);
      assert.equal(result.code, 0, result.stderr);
      const path = join(home, ".local/share", file);
      assert.ok(result.stdout.includes(`completions: ${path}\n`), result.stdout);
      assert.match(readFileSync(path, "utf8"), /completion for pi-session/);
    }
    assert.equal(await versionAt(join(home, ".local")), (await exec(join(release, releaseFileName(VERSION, host!)), ["--version"])).stdout);
  });

  it("refuses a file whose checksum does not match and installs nothing", async () => {
    const damaged = join(work, "damaged");
    const file = releaseDir(damaged, VERSION, join(release, releaseFileName(VERSION, host!)));
    appendFileSync(file, "x");
    const prefix = freshPrefix();
    const result = await install(["--prefix", prefix, damaged]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /checksum mismatch for .*: SHA256SUMS says [0-9a-f]{64}, the file is [0-9a-f]{64}; not installing/);
    assert.deepEqual(readdirSync(join(prefix, "bin")), [], "nothing installed, no staging file left");
  });

  it("does not downgrade without --force, does with it, and upgrades without it", async () => {
    const prefix = freshPrefix();
    assert.equal((await install(["--prefix", prefix, release])).code, 0);

    const refused = await install(["--prefix", prefix, fakeRelease("0.0.1")]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`is version ${versionPattern}, newer than 0\\.0\\.1; pass --force to downgrade`));
    assert.match(await versionAt(prefix), new RegExp(`^pi-session ${versionPattern} `));

    const forced = await install(["--force", "--prefix", prefix, fakeRelease("0.0.1")]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(await versionAt(prefix), "pi-session 0.0.1 (fake)\n");

    const upgraded = await install(["--prefix", prefix, release]);
    assert.equal(upgraded.code, 0, upgraded.stderr);
    assert.match(upgraded.stdout, new RegExp(`replacing pi-session 0\\.0\\.1 with ${versionPattern}`));
  });

  it("orders versions the semantic-versioning way", async () => {
    const cases: [installed: string, offered: string, replaces: boolean][] = [
      ["0.9.0", "0.10.0", true],
      ["0.10.0", "0.9.0", false],
      ["1.0.0-rc.1", "1.0.0", true],
      ["1.0.0", "1.0.0-rc.1", false],
      ["1.0.0-beta.2", "1.0.0-beta.11", true],
      ["1.0.0-rc.1", "1.0.0-beta", false],
      ["1.0.0-alpha", "1.0.0-alpha.1", true],
      ["2.0.0", "2.0.0", true],
    ];
    for (const [installed, offered, replaces] of cases) {
      const prefix = freshPrefix();
      assert.equal((await install(["--prefix", prefix, fakeRelease(installed)])).code, 0);
      const result = await install(["--prefix", prefix, fakeRelease(offered)]);
      assert.equal(result.code, replaces ? 0 : 1, `${installed} -> ${offered}: ${result.stdout}${result.stderr}`);
      assert.equal(await versionAt(prefix), `pi-session ${replaces ? offered : installed} (fake)\n`);
    }
  });

  it("installs a single file only with a SHA256SUMS next to it, or with --no-verify (and --no-completions)", async () => {
    const lone = join(work, "lone");
    mkdirSync(lone);
    copyFileSync(join(fakeRelease("0.3.0"), releaseFileName("0.3.0", host!)), join(lone, "pi-session"));
    const prefix = freshPrefix();
    const refused = await install(["--prefix", prefix, join(lone, "pi-session")]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /no SHA256SUMS next to .*; pass --no-verify/);
    assert.equal(existsSync(join(prefix, "bin", "pi-session")), false);

    const unchecked = await install(["--no-verify", "--no-completions", "--prefix", prefix, join(lone, "pi-session")], "/bin/bash");
    assert.equal(unchecked.code, 0, unchecked.stderr);
    assert.equal(await versionAt(prefix), "pi-session 0.3.0 (fake)\n");
    assert.equal(existsSync(join(prefix, "share")), false, "--no-completions wrote completions");

    const named = join(fakeRelease("0.4.0"), releaseFileName("0.4.0", host!));
    const checked = await install(["--prefix", prefix, named]);
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /checksum ok: /);
  });

  it("answers --help and rejects bad usage with exit code 2", async () => {
    const help = await install(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: install\.sh \[options\] SOURCE/);
    assert.equal((await install([])).code, 2);
    assert.equal((await install(["--frobnicate", release])).code, 2);
  });
});
