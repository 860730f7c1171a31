/**
 * A real full disk: a 2 MB tmpfs (mounted here when running as root on Linux; skipped with a
 * message elsewhere), filled so that only a few KiB to a few dozen KiB stay free, and every write
 * command run at each level. Whatever fails, no file is left partial or empty, no session line
 * torn, no temp file or lock left; once space is freed the same command succeeds.
 * @module
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { detectFileSystem } from "../../src/io/mod.ts";
import { assistantEntry, header, jsonl, runCli, userEntry } from "./_harness.ts";

const fs = detectFileSystem();

/** Mounts a 2 MB tmpfs at a new folder; why not, when it cannot. */
function mountTmpfs(): { dir: string } | { skip: string } {
  if (process.platform !== "linux") return { skip: "a real full disk needs Linux tmpfs" };
  if (process.getuid?.() !== 0) return { skip: "a real full disk needs root to mount a tmpfs (run as root to include it)" };
  const dir = mkdtempSync(join(tmpdir(), "pi-session-full-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", dir], { encoding: "utf8" });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs here: ${(mounted.stderr || mounted.error?.message || "").trim()}` };
  }
  return { dir };
}

const mount = mountTmpfs();
if ("skip" in mount) console.log(`full disk (tmpfs): skipped: ${mount.skip}`);
const root = "dir" in mount ? mount.dir : "";
const agentDir = join(root, "agent");
const sessions = join(root, "s");
const source = join(sessions, "2025-06-01T10-00-00-000Z_src-1.jsonl");
const v1 = join(sessions, "2024-01-01T00-00-00-000Z_legacy-1.jsonl");
const filler = join(root, "filler");

/** About 40 KiB of conversation, so a fork or an export needs more than the space left. */
const SOURCE = jsonl(
  header("src-1", "/work/proj"),
  ...Array.from({ length: 40 }, (_, i) => [userEntry(`u${i}`, i === 0 ? null : `a${i - 1}`, `question ${i} `.repeat(40)), assistantEntry(`a${i}`, `u${i}`, `answer ${i} `.repeat(40))]).flat(),
);
const V1 = [
  `{"type":"session","id":"legacy-1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj"}`,
  ...Array.from({ length: 60 }, (_, i) => `{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"${"old words ".repeat(50)}","timestamp":${i}}}`),
].join("\n") + "\n";

const CASES: { name: string; argv: string[]; output?: string }[] = [
  { name: "fork", argv: ["fork", source, "--at", "a30"] },
  { name: "clone", argv: ["clone", source] },
  { name: "migrate", argv: ["migrate", v1] },
  { name: "name", argv: ["name", source, "x".repeat(6000)] },
  { name: "export html", argv: ["export", source, "-o", join(root, "out.html")], output: join(root, "out.html") },
  { name: "export markdown", argv: ["export", source, "--format", "markdown", "-o", join(root, "out.md")], output: join(root, "out.md") },
];

/** Every file and folder under `dir`, relative, sorted. */
function tree(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const name = prefix + entry.name;
    return entry.isDirectory() ? [name + "/", ...tree(join(dir, entry.name), name + "/")] : [name];
  }).sort();
}

/** Fills the disk, then gives back `free` bytes (tmpfs counts whole 4 KiB pages). */
function fillLeaving(free: number): void {
  const fd = openSync(filler, "w");
  const block = new Uint8Array(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch {
    // full
  }
  ftruncateSync(fd, Math.max(0, statSync(filler).size - free));
  closeSync(fd);
}

function reset(): void {
  for (const name of readdirSync(root)) rmSync(join(root, name), { recursive: true, force: true });
  mkdirSync(sessions, { recursive: true });
  writeFileSync(source, SOURCE);
  writeFileSync(v1, V1);
}

const run = (argv: string[]) => runCli(argv, { fs, home: root, env: { PI_CODING_AGENT_DIR: agentDir } });

const totals = { runs: 0, failures: 0, bytesLost: 0 };

describe("write commands on a real full disk (2 MB tmpfs)", { skip: "skip" in mount ? mount.skip : false }, () => {
  before(() => reset());
  after(() => {
    spawnSync("umount", [root]);
    rmSync(root, { recursive: true, force: true });
    console.log(`full disk (tmpfs): ${totals.runs} runs, ${totals.failures} failed for lack of space, ${totals.bytesLost} bytes lost`);
  });

  for (const { name, argv, output } of CASES) {
    it(`${name} on a full disk leaves nothing partial and succeeds once there is space`, async () => {
      for (let free = 0; free <= 48 * 1024; free += 4096) {
        reset();
        const expected = tree(root);
        fillLeaving(free);
        const result = await run(argv);
        totals.runs++;
        const lost = (readFileSync(source, "latin1").startsWith(SOURCE) ? 0 : SOURCE.length) + (tree(root).includes("s/2024-01-01T00-00-00-000Z_legacy-1.jsonl.v1.bak") || readFileSync(v1, "latin1") === V1 ? 0 : V1.length);
        totals.bytesLost += lost;
        assert.equal(lost, 0, `${free} bytes free: a session lost bytes`);
        rmSync(filler);
        if (result.code !== 0) {
          totals.failures++;
          assert.equal(result.code, 3, `${free} bytes free: ${result.stderr}`);
          assert.match(result.stderr, /no space left on the device/);
          assert.deepEqual(tree(root), expected, `${free} bytes free: the failed run left something behind`);
          assert.equal(readFileSync(source, "latin1"), SOURCE);
          assert.equal(readFileSync(v1, "latin1"), V1);
          const again = await run(argv);
          assert.equal(again.code, 0, `${free} bytes free, run again with space: ${again.stderr}`);
        }
        // Whatever was written is whole: sessions pass check, the backup is the original, the export ends.
        const written = tree(root).filter((name) => !expected.includes(name));
        for (const name of written.filter((n) => n.endsWith(".jsonl"))) {
          const checked = await run(["check", join(root, name)]);
          assert.equal(checked.code, 0, `${name}: ${checked.stdout}${checked.stderr}`);
        }
        if (name === "migrate") assert.equal(readFileSync(`${v1}.v1.bak`, "latin1"), V1);
        if (output !== undefined) assert.ok(statSync(output).size > 1000 && /(<\/html>|\n)\s*$/.test(readFileSync(output, "utf8")));
        assert.deepEqual(written.filter((n) => n.endsWith(".tmp") || n.includes(".lock") || statSync(join(root, n)).size === 0), []);
      }
    });
  }
});
