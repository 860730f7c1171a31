/**
 * Tests for `migrate`: byte-exact, repeatable output for old files, backups that never
 * overwrite, dry runs that write nothing, refusals that lose no line, and failures.
 * @module
 */
import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { nodeFileSystem } from "../../src/io/node.ts";
import { wrap } from "./_fs-wrappers.ts";
import { addSession, CWD, fingerprint, header, jsonl, memoryFs, readOnlyFs, readText, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

/** A version 1 file: no ids, a hookMessage, a compaction pointing at line 2 by index. */
const V1 = [
  `{"type":"session","id":"legacy-1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj"}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:02.000Z","message":{"role":"hookMessage","customType":"note","content":"x","display":true,"timestamp":2}}`,
  `{"type":"compaction","timestamp":"2024-01-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":10}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:04.000Z","message":{"role":"user","content":"again","timestamp":4}}`,
].join("\n") + "\n";

/** What V1 must become, byte for byte (ids derived from the session id and position). */
const V3 = [
  `{"type":"session","id":"legacy-1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj","version":3}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1},"id":"58a5238f","parentId":null}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:02.000Z","message":{"role":"custom","customType":"note","content":"x","display":true,"timestamp":2},"id":"616259af","parentId":"58a5238f"}`,
  `{"type":"compaction","timestamp":"2024-01-01T00:00:03.000Z","summary":"s","tokensBefore":10,"id":"f15c76eb","parentId":"616259af","firstKeptEntryId":"616259af"}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:04.000Z","message":{"role":"user","content":"again","timestamp":4},"id":"014fb231","parentId":"f15c76eb"}`,
].join("\n") + "\n";

const DIR = sessionDir();
const FILE = `${DIR}/2024-01-01T00-00-00-000Z_legacy-1.jsonl`;

async function withV1(text = V1) {
  const fs = memoryFs();
  await writeText(fs, FILE, text);
  return fs;
}

describe("migrate", () => {
  it("migrate rewrites a v1 file as exact v3 bytes and keeps a .bak", async () => {
    const fs = await withV1();
    const r = await runCli(["migrate", FILE], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readText(fs, FILE), V3);
    assert.equal(await readText(fs, `${FILE}.v1.bak`), V1);
    assert.equal(r.stdout, `migrated: ${FILE} (v1 -> v3, backup ${FILE}.v1.bak)\n`);
    assert.equal(await fs.stat(`${FILE}.lock`), null);
  });

  it("migrate gives the same bytes every time and leaves a v3 file alone", async () => {
    const one = await withV1();
    const two = await withV1();
    await runCli(["migrate", "legacy-1"], { fs: one });
    await runCli(["migrate", "legacy-1", "--no-backup"], { fs: two });
    assert.equal(await readText(one, FILE), await readText(two, FILE));
    assert.equal(await two.stat(`${FILE}.v1.bak`), null);
    const before = await fingerprint(one, DIR);
    const again = await runCli(["migrate", FILE], { fs: one });
    assert.equal(again.code, 0);
    assert.equal(again.stdout, `already v3: ${FILE}\n`);
    assert.equal(await fingerprint(one, DIR), before);
  });

  it("migrate never overwrites an existing backup", async () => {
    const fs = await withV1();
    await writeText(fs, `${FILE}.v1.bak`, "older backup\n");
    const r = await runCli(["migrate", FILE, "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [{ path: FILE, fromVersion: 1, toVersion: 3, action: "migrated", backup: `${FILE}.v1.bak.2` }]);
    assert.equal(await readText(fs, `${FILE}.v1.bak`), "older backup\n");
    assert.equal(await readText(fs, `${FILE}.v1.bak.2`), V1);
  });

  it("migrate --dry-run writes nothing", async () => {
    const fs = await withV1();
    const before = await fingerprint(fs, "/");
    const r = await runCli(["migrate", FILE, "--dry-run", "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [{ path: FILE, fromVersion: 1, toVersion: 3, action: "would-migrate", backup: `${FILE}.v1.bak` }]);
    assert.equal(await fingerprint(fs, "/"), before);
    const text = await runCli(["migrate", FILE, "-n"], { fs });
    assert.equal(text.stdout, `would migrate: ${FILE} (v1 -> v3, backup ${FILE}.v1.bak)\n`);
    assert.match(text.stderr, /dry run: nothing was written/);
    assert.equal(await fingerprint(fs, "/"), before);
  });

  it("migrate renames hookMessage in a v2 file", async () => {
    const fs = memoryFs();
    const entry = { type: "message", id: "m1", parentId: null, timestamp: "t", message: { role: "hookMessage", content: "x", timestamp: 1 } };
    const path = await addSession(fs, "v2file", [entry], { text: jsonl(header("v2file", CWD, { version: 2 }), entry) });
    const r = await runCli(["migrate", path], { fs });
    assert.equal(r.code, 0, r.stderr);
    const lines = (await readText(fs, path)).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines[0].version, 3);
    assert.deepEqual(lines[1], { ...entry, message: { ...entry.message, role: "custom" } });
  });

  it("migrate refuses a file whose bad lines the rewrite would drop, unless --force", async () => {
    const torn = V1.replace(/\n(\{"type":"compaction")/, "\n{not json\n$1") + `{"type":"message","timest`;
    const fs = await withV1(torn);
    const r = await runCli(["migrate", FILE], { fs });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /line 4 \(malformed-json\), line 7 \(torn-line\)/);
    assert.equal(await readText(fs, FILE), torn);
    assert.equal(await fs.stat(`${FILE}.v1.bak`), null);
    const forced = await runCli(["migrate", FILE, "--force", "--json"], { fs });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(JSON.parse(forced.stdout)[0].message, /dropped 2 lines: .* kept in .*\.v1\.bak/);
    assert.equal(await readText(fs, `${FILE}.v1.bak`), torn);
    assert.equal((await readText(fs, FILE)).split("\n").length, 6);
  });

  it("migrate walks a sessions directory one level deep and reports non-sessions with exit 3", async () => {
    const fs = await withV1();
    const other = await addSession(fs, "new-one", [userEntry("u1", null, "hi")], { cwd: "/elsewhere" });
    await writeText(fs, `${DIR}/broken.jsonl`, "garbage\n");
    const root = DIR.slice(0, DIR.lastIndexOf("/"));
    const r = await runCli(["migrate", root, "--json"], { fs });
    assert.equal(r.code, 3);
    const results = JSON.parse(r.stdout) as { path: string; action: string }[];
    assert.deepEqual(results.map((x) => [x.path, x.action]).sort(), [
      [other, "skipped"],
      [FILE, "migrated"],
      [`${DIR}/broken.jsonl`, "error"],
    ].sort());
    assert.equal(await readText(fs, FILE), V3);
  });

  it("migrate rejects an unknown reference with exit 2", async () => {
    const fs = await withV1();
    const r = await runCli(["migrate", "nope"], { fs });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /No session found matching "nope"/);
  });

  it("migrate reports a read-only directory with exit 3 and writes nothing", async () => {
    const fs = await withV1();
    const before = await fingerprint(fs, "/");
    const r = await runCli(["migrate", FILE], { fs: readOnlyFs(fs, [DIR]) });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /permission denied/);
    assert.equal(await fingerprint(fs, "/"), before);
  });

  it("migrate leaves a read-only file alone with exit 3", async () => {
    const fs = memoryFs();
    await fs.mkdir(DIR, { recursive: true });
    await fs.append(FILE, new TextEncoder().encode(V1), { mode: 0o444 });
    const r = await runCli(["migrate", FILE], { fs });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /is read-only/);
    assert.equal(await readText(fs, FILE), V1);
    assert.equal(await fs.stat(`${FILE}.v1.bak`), null);
  });

  it("migrate reports a real read-only directory with exit 3", { skip: process.getuid?.() === 0 ? "root ignores permissions" : false }, async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-session-migrate-"));
    const path = join(root, "old.jsonl");
    try {
      await writeText(nodeFileSystem, path, V1);
      await chmod(root, 0o555);
      const r = await runCli(["migrate", path], { fs: nodeFileSystem });
      assert.equal(r.code, 3);
      assert.equal(await readFile(path, "utf8"), V1);
    } finally {
      await chmod(root, 0o755).catch(() => {});
      await rm(root, { recursive: true, force: true });
    }
  });

  it("migrate works on disk through the node adapter", async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-session-migrate-"));
    const path = join(root, "old.jsonl");
    try {
      await writeText(nodeFileSystem, path, V1);
      const r = await runCli(["migrate", path], { fs: nodeFileSystem });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await readFile(path, "utf8"), V3);
      assert.equal(await readFile(`${path}.v1.bak`, "utf8"), V1);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
  it("migrate leaves a v3 file alone after reading only its start, however long the file", async () => {
    const fs = memoryFs();
    const line = (i: number) => JSON.stringify(userEntry(`u${i}`, i === 0 ? null : `u${i - 1}`, "x".repeat(1000)));
    const lines = [JSON.stringify(header("big-v3")), ...Array.from({ length: 3000 }, (_, i) => line(i))];
    const path = `${DIR}/2024-01-01T00-00-00-000Z_big-v3.jsonl`;
    await writeText(fs, path, lines.join("\n") + "\n");
    let bytesRead = 0;
    const counting = wrap(fs, {
      read: (p, range) => (async function* () {
        for await (const chunk of fs.read(p, range)) {
          bytesRead += chunk.length;
          yield chunk;
        }
      })(),
    });
    const r = await runCli(["migrate", path], { fs: counting });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `already v3: ${path}\n`);
    assert.ok(bytesRead < 200_000, `read ${bytesRead} bytes of a ${lines.join("\n").length}-byte file`);
  });
});
