/**
 * Every write command against a disk that fails at each of its write steps in turn (ENOSPC,
 * injected by the memory file system's fault hook): a failed run leaves the disk exactly as it
 * was (no partial or empty session, backup or export, no torn line, no temp file, no lock), and
 * the same command then succeeds at once. Prints the counts the README's reliability section quotes.
 * @module
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { MemoryFileSystem, type MemoryWriteStep } from "../../src/io/memory.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { addSession, assistantEntry, CWD, fingerprint, NOW, readBytes, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

const V1 = [
  `{"type":"session","id":"legacy-1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj"}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:02.000Z","message":{"role":"user","content":"again","timestamp":2}}`,
].join("\n") + "\n";
const V1_FILE = `${sessionDir()}/2024-01-01T00-00-00-000Z_legacy-1.jsonl`;

async function setup(fs: MemoryFileSystem): Promise<void> {
  await addSession(fs, "src-1", [userEntry("u1", null, "first"), assistantEntry("a1", "u1", "one"), userEntry("u2", "a1", "second")]);
  await writeText(fs, V1_FILE, V1);
  await fs.mkdir("/out", { recursive: true });
}

const CASES: { name: string; argv: string[] }[] = [
  { name: "fork", argv: ["fork", "src-1", "--at", "a1"] },
  { name: "clone", argv: ["clone", "src-1"] },
  { name: "migrate", argv: ["migrate", V1_FILE] },
  { name: "name", argv: ["name", "src-1", "a new name"] },
  { name: "label", argv: ["label", "src-1", "u1", "start"] },
  { name: "name on a v1 file", argv: ["name", V1_FILE, "old one"] },
  { name: "export html", argv: ["export", "src-1", "-o", "/out/s.html"] },
  { name: "export markdown", argv: ["export", "src-1", "--format", "markdown", "-o", "/out/s.md"] },
];

/**
 * Releasing a lock (renaming it aside, then removing it): a failure there leaves the lock or its
 * remains behind by design, for the stale-lock rules (tested on their own) to clear, which they
 * cannot do here, inside the process that still runs under the holder's pid.
 */
const isRelease = (step: MemoryWriteStep) =>
  (step.op === "rename" && step.path.endsWith(".lock")) || (step.op === "remove" && /\.lock(\.[0-9a-f]{12}\.tmp)?(\/holder\.json)?$/.test(step.path));

/** Every file under `dir` and its bytes. */
async function snapshot(fs: FileSystem, dir = "/", into = new Map<string, Uint8Array>()): Promise<Map<string, Uint8Array>> {
  for (const entry of await fs.list(dir)) {
    const path = `${dir === "/" ? "" : dir}/${entry.name}`;
    if (entry.isDirectory) await snapshot(fs, path, into);
    else into.set(path, await readBytes(fs, path));
  }
  return into;
}

/** Bytes of the files in `before` that `after` no longer holds at the same place (files only grow by appends). */
function bytesLost(before: Map<string, Uint8Array>, after: Map<string, Uint8Array>): number {
  let lost = 0;
  for (const [path, old] of before) {
    const now = after.get(path);
    if (now === undefined || now.length < old.length || old.some((byte, i) => now[i] !== byte)) lost += old.length;
  }
  return lost;
}

function diskFull(): never {
  throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
}

const totals = { runs: 0, faults: 0, bytesLost: 0 };

after(() => {
  console.log(`full disk (memory, every write step): ${totals.runs} runs, ${totals.faults} faults injected, ${totals.bytesLost} bytes lost`);
  assert.equal(totals.bytesLost, 0);
});

describe("write commands on a disk that fails at every write step", () => {
  for (const { name, argv } of CASES) {
    it(`${name} leaves the disk as it was when any write step fails, and then succeeds`, async () => {
      let steps = 0;
      const counting = new MemoryFileSystem({ clock: () => NOW.getTime(), cwd: CWD });
      await setup(counting);
      const counted = new MemoryFileSystem({ clock: () => NOW.getTime(), cwd: CWD, fault: (step) => void (isRelease(step) || steps++) });
      await setup(counted);
      assert.equal((await runCli(argv, { fs: counted })).code, 0);
      assert.ok(steps > 0);
      for (let failAt = 0; failAt < steps; failAt++) {
        let step = 0;
        let armed = false;
        const fs = new MemoryFileSystem({
          clock: () => NOW.getTime(),
          cwd: CWD,
          fault: (s) => {
            if (!armed || isRelease(s)) return;
            if (step++ === failAt) diskFull();
          },
        });
        await setup(fs);
        const before = await fingerprint(fs, "/");
        const beforeFiles = await snapshot(fs);
        armed = true;
        const failed = await runCli(argv, { fs });
        armed = false;
        totals.runs++;
        totals.faults++;
        // A migration rewrites its file: what it keeps is the backup, checked by the retry below.
        if (name !== "migrate" && name !== "name on a v1 file" || failed.code !== 0) totals.bytesLost += bytesLost(beforeFiles, await snapshot(fs));
        if (failed.code === 0) continue; // a best-effort step (the lock's holder file) failed: the command did its job
        assert.equal(failed.code, 3, `step ${failAt}: ${failed.stderr}`);
        assert.match(failed.stderr, /no space left on the device/, `step ${failAt}`);
        assert.equal(await fingerprint(fs, "/"), before, `step ${failAt}: the failed run changed the disk`);
        const again = await runCli(argv, { fs });
        totals.runs++;
        assert.equal(again.code, 0, `step ${failAt}, run again: ${again.stderr}`);
        if (name === "migrate") assert.equal((await fs.stat(`${V1_FILE}.v1.bak`))?.isFile, true, "the retry's backup is .v1.bak, not .v1.bak.2");
      }
    });
  }
});
