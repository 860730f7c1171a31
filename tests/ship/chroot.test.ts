/**
 * What the Containerfile promises, checked without a container engine: the executable runs
 * in a root holding only itself, the shared libraries `ldd` lists and the sample sessions,
 * read-only at /sessions, with the image's environment, as root and as a non-root user;
 * and an unwritable catalog cache never fails a command. Each run gets a private mount
 * namespace (`unshare`) with /proc and a fresh /tmp, as a container has, and /sessions
 * bind-mounted read-only. The chroot runs need Node, Linux, root, chroot and unshare; the
 * check that the Containerfile sets up what they assume runs everywhere.
 */
import { execFile, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { compileArgs } from "../../scripts/compile.ts";
import { VERSION } from "../../src/version.ts";

const root = new URL("../..", import.meta.url).pathname;
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const hasTools = () => spawnSync("sh", ["-c", "command -v chroot && command -v unshare && command -v ldd && command -v mount"], { stdio: "ignore" }).status === 0;
const canUnshare = () => spawnSync("unshare", ["--mount", "--propagation", "private", "true"], { stdio: "ignore" }).status === 0;
const skip = !isNode
  ? "runs under Node only: it compiles the executable and drives chroot"
  : process.platform !== "linux"
  ? "chroot with ldd-listed libraries is a Linux check"
  : process.getuid?.() !== 0
  ? "needs root for chroot and mount (run as root to check the container layout)"
  : !hasTools()
  ? "needs chroot, unshare, ldd and mount"
  : !canUnshare()
  ? "this machine does not allow a private mount namespace (unshare --mount), as in a container without CAP_SYS_ADMIN"
  : false;

/** The environment the Containerfile sets (PI_CODING_AGENT_DIR, XDG_CACHE_HOME), plus a HOME inside the root. */
const IMAGE_ENV = { PI_CODING_AGENT_DIR: "/sessions", XDG_CACHE_HOME: "/tmp", HOME: "/home/nonroot", NO_COLOR: "1", TZ: "UTC" };
const NOBODY = "65534:65534";
const canSwitchUser = () => spawnSync("chroot", [`--userspec=${NOBODY}`, "/", "true"]).status === 0;
const NO_USERSPEC = "this chroot cannot switch users (--userspec), so the non-root runs are left out";

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(command: string, args: string[], env: Record<string, string>): Promise<Result> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The absolute paths `ldd` prints: each library and the dynamic loader. */
function sharedLibraries(binary: string): string[] {
  const out = spawnSync("ldd", [binary], { encoding: "utf8" });
  assert.equal(out.status, 0, out.stderr);
  return [...out.stdout.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)/g)].map((m) => m[1]);
}

describe("Containerfile", () => {
  it("sets up the image the way the chroot runs below assume", () => {
    const text = readFileSync(join(root, "Containerfile"), "utf8");
    const final = text.slice(text.lastIndexOf("\nFROM "));
    const env = Object.fromEntries([...final.matchAll(/^ENV (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    assert.deepEqual(env, { PI_CODING_AGENT_DIR: IMAGE_ENV.PI_CODING_AGENT_DIR, XDG_CACHE_HOME: IMAGE_ENV.XDG_CACHE_HOME });
    assert.match(final, /^COPY --from=build \S+ \/usr\/local\/bin\/pi-session$/m);
    assert.match(final, /^USER [1-9]\d*:[1-9]\d*$/m, "a non-root user");
    assert.match(final, /^ENTRYPOINT \["pi-session"\]$/m);
  });
});

describe("the executable in a container-like root", { skip }, () => {
  let work: string;
  let jail: string;
  let hostBinary: string;

  /** Runs the executable inside the root, as `user` (uid:gid) or root, with `env` and nothing else of ours. */
  function inJail(args: string[], env: Record<string, string>, user?: string): Promise<Result> {
    const mounts = [
      'mount -t proc proc "$0/proc"',
      // A fresh /tmp per run, as each `docker run --rm` starts from the image again.
      'mount -t tmpfs -o mode=1777 tmpfs "$0/tmp"',
      'mount --bind "$0/sessions" "$0/sessions"',
      'mount -o remount,bind,ro "$0/sessions"',
      'exec chroot "$@"',
    ].join(" && ");
    const chroot = [...(user ? [`--userspec=${user}`] : []), jail, "/usr/local/bin/pi-session", ...args];
    return exec("unshare", ["--mount", "--propagation", "private", "sh", "-c", mounts, jail, ...chroot], { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", ...env });
  }

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-chroot-"));
    hostBinary = join(work, "pi-session");
    const built = await exec(join(root, "node_modules", ".bin", "bun"), compileArgs(hostBinary), { PATH: process.env.PATH ?? "", HOME: work });
    assert.equal(built.code, 0, built.stderr);

    jail = join(work, "root");
    mkdirSync(join(jail, "usr/local/bin"), { recursive: true });
    copyFileSync(hostBinary, join(jail, "usr/local/bin/pi-session"));
    chmodSync(join(jail, "usr/local/bin/pi-session"), 0o755);
    for (const library of sharedLibraries(hostBinary)) {
      mkdirSync(join(jail, dirname(library)), { recursive: true });
      copyFileSync(library, join(jail, library)); // the file itself, not a symlink to it
    }
    cpSync(join(root, "examples/agent"), join(jail, "sessions"), { recursive: true });
    // As with `docker run --user "$(id -u):$(id -g)"`: the sessions belong to the user who runs it.
    assert.equal(spawnSync("chown", ["-R", NOBODY, join(jail, "sessions")]).status, 0);
    mkdirSync(join(jail, "proc"));
    mkdirSync(join(jail, "tmp"));
    chmodSync(join(jail, "tmp"), 0o1777);
    chmodSync(jail, 0o755); // mkdtemp made it 0700, which would lock a non-root user out of /
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** `list --all --json` of the same samples run on the host, with paths as seen at /sessions. */
  async function expectedListing(): Promise<unknown> {
    const agent = join(root, "examples/agent");
    const host = await exec(hostBinary, ["list", "--all", "--json", "--agent-dir", agent], { PATH: "/usr/bin:/bin", HOME: join(work, "home"), NO_COLOR: "1", TZ: "UTC" });
    assert.equal(host.code, 0, host.stderr);
    return JSON.parse(host.stdout.replaceAll(`${agent}/`, "/sessions/"));
  }

  it("holds only the executable, its libraries, the sessions and empty /proc and /tmp", () => {
    const ls = spawnSync("find", [jail, "-type", "f", "-not", "-path", `${jail}/sessions/*`], { encoding: "utf8" });
    const files = ls.stdout.trim().split("\n").map((f) => f.slice(jail.length)).sort();
    assert.deepEqual(files, ["/usr/local/bin/pi-session", ...sharedLibraries(hostBinary)].sort());
    assert.ok(files.some((f) => /ld-linux|ld-musl/.test(f)), `no dynamic loader among ${files.join(", ")}`);
  });

  for (const [who, user] of [["root", undefined], ["a non-root user", NOBODY]] as const) {
    it(`runs --version, list --all --json and export --format html as ${who}`, async (t) => {
      if (user && !canSwitchUser()) return t.skip(NO_USERSPEC);
      const version = await inJail(["--version"], IMAGE_ENV, user);
      assert.equal(version.code, 0, version.stderr);
      assert.match(version.stdout, new RegExp(`^pi-session ${VERSION.replaceAll(".", "\\.")} \\((?:[0-9a-f]{4,}|unknown)\\)\n$`));

      const listed = await inJail(["list", "--all", "--json"], IMAGE_ENV, user);
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(listed.stderr, "", "the catalog under XDG_CACHE_HOME=/tmp opens, so there is nothing to note");
      const sessions = JSON.parse(listed.stdout) as { id: string }[];
      assert.equal(sessions.length, 6);
      assert.deepEqual(sessions, await expectedListing());

      const exported = await inJail(["export", "019c4a1e", "--format", "html", "-o", "-"], IMAGE_ENV, user);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stdout, /^<!DOCTYPE html>\n<html lang="en">/i);
      assert.ok(exported.stdout.includes("019c4a1e-5b20-7c3d-8e41-a2f6c9d0b311"), "the export holds the session");
      assert.ok(exported.stdout.trimEnd().endsWith("</html>"));
    });
  }

  it("refuses a write on the read-only /sessions with a message, even as root", async () => {
    const named = await inJail(["name", "019c4a1e", "Renamed in the container"], IMAGE_ENV);
    assert.equal(named.code, 3);
    assert.match(named.stderr, /: the file system is read-only\nhint: Check that the place can be written: not a read-only mount/);
    const info = await inJail(["info", "019c4a1e", "--json"], IMAGE_ENV);
    assert.equal(info.code, 0, info.stderr);
    assert.equal(JSON.parse(info.stdout).name, "Cart discount codes");
  });

  it("lists the same sessions when the catalog cache cannot be written, with a note on stderr", async (t) => {
    if (!canSwitchUser()) return t.skip(NO_USERSPEC);
    const unwritable = { PI_CODING_AGENT_DIR: "/sessions", HOME: "/nonexistent", NO_COLOR: "1", TZ: "UTC" };
    const listed = await inJail(["list", "--all", "--json"], unwritable, NOBODY);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), await expectedListing());
    assert.match(listed.stderr, /catalog .*\/nonexistent\/\.cache\/pi-session/);

    const searched = await inJail(["search", "discount", "--all"], unwritable, NOBODY);
    assert.equal(searched.code, 0, searched.stderr);
    assert.match(searched.stdout, /019c4a1e/);
  });
});
