/**
 * Tests for `repair`: what it writes (the repaired file, a backup of the original, the bytes
 * set aside), what it prints (every change with its line; judgements with the command line of
 * their fix), that a second run changes nothing, dry runs, exit codes, and a line pi appends
 * while the file is being rewritten.
 * @module
 */
import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { FsError } from "../../src/io/file-system.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { beforeEach, wrap } from "./_fs-wrappers.ts";
import { addSession, assistantEntry, fingerprint, header, memoryFs, readText, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

const line = (value: object) => JSON.stringify(value);
const H = line(header("rep-1"));
const U1 = line(userEntry("u1", null, "hello"));
const A1 = line(assistantEntry("a1", "u1", "cut off here"));
const U2 = line(userEntry("u2", "u1", "again"));
const U3 = line(userEntry("u3", "u2", "and again"));

/** A file damaged three ways: a cut-off record with the next one glued on, a glued pair, NUL padding. */
const DAMAGED = `${H}\n${U1}\n${A1.slice(0, 40)}${U2}\n${U3}\0\0\0\0\n`;
const REPAIRED = `${H}\n${U1}\n${U2}\n${U3}\n`;

async function damaged(text = DAMAGED) {
  const fs = memoryFs();
  const path = await addSession(fs, "rep-1", [], { text });
  return { fs, path };
}

describe("repair", () => {
  it("repair fixes the file, keeps the original as a backup and the cut-off bytes in .rejected", { timeout: 120_000 }, async () => {
    const { fs, path } = await damaged();
    const r = await runCli(["repair", path], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readText(fs, path), REPAIRED);
    assert.equal(await readText(fs, `${path}.repair.bak`), DAMAGED);
    assert.equal(await readText(fs, `${path}.rejected`), `${A1.slice(0, 40)}\n`);
    assert.equal(
      r.stdout,
      [
        `repaired: ${path} (backup ${path}.repair.bak; set aside in ${path}.rejected)`,
        `  ${path}:3: [cut-off-record] A record cut off before its end (40 bytes) is set aside in the .rejected file; the whole record on the line is kept on a line of its own`,
        `  ${path}:4: [nul-padding] Dropped 4 NUL bytes (padding left by a crash)`,
        "",
      ].join("\n"),
    );
    assert.match(r.stderr, /1 repaired, 0 with nothing to repair/);
    assert.equal(await fs.stat(`${path}.lock`), null);
  });

  it("repair a second time changes nothing and says so", { timeout: 120_000 }, async () => {
    const { fs, path } = await damaged();
    await runCli(["repair", path], { fs });
    const before = await fingerprint(fs, sessionDir());
    const again = await runCli(["repair", path], { fs });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, `nothing to repair: ${path}\n`);
    assert.equal(await fingerprint(fs, sessionDir()), before);
  });

  it("repair --dry-run writes nothing and says what it would do", { timeout: 120_000 }, async () => {
    const { fs, path } = await damaged();
    const before = await fingerprint(fs, "/");
    const r = await runCli(["repair", path, "--dry-run"], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^would repair: .* \(set aside in .*\.rejected\)\n/);
    assert.match(r.stdout, /:3: \[cut-off-record\]/);
    assert.match(r.stderr, /dry run: nothing was written/);
    assert.equal(await fingerprint(fs, "/"), before);
  });

  it("repair --json reports every change with its line", { timeout: 120_000 }, async () => {
    const { fs, path } = await damaged(`\uFEFF${H}\r\n${U1}${U2}\r\n`);
    const r = await runCli(["repair", path, "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const [result] = JSON.parse(r.stdout);
    assert.equal(result.action, "repaired");
    assert.equal(result.backup, `${path}.repair.bak`);
    assert.equal(result.rejected, undefined);
    assert.deepEqual(result.changes.map((c: { kind: string; line: number }) => [c.kind, c.line]), [["bom", 1], ["crlf", 1], ["glued-records", 2]]);
    assert.deepEqual(result.changes[1].lines, [[1, 2]]);
    assert.deepEqual(result.judgements, []);
    assert.equal(await readText(fs, path), `${H}\n${U1}\n${U2}\n`);
  });

  it("repair lists a missing parent with the command line that fixes it, and that command does", { timeout: 120_000 }, async () => {
    const { fs, path } = await damaged(`${H}\n${U1}\n${line(userEntry("u9", "gone", "orphan"))}\n`);
    const r = await runCli(["repair", path], { fs });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, [
      `nothing to repair: ${path}`,
      `  ${path}:3: [missing-parent] Entry "u9" has parent "gone", which is not in the file; to fix: pi-session repair ${path} --relink-orphans`,
      "",
    ].join("\n"));
    assert.match(r.stderr, /1 file with problems left for a decision/);
    const fixed = await runCli(["repair", path, "--relink-orphans"], { fs });
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.match(fixed.stdout, /:3: \[relink-orphan\] Entry "u9" had parent "gone", which is not in the file; its parent is now "u1"/);
    assert.equal(await readText(fs, path), `${H}\n${U1}\n${line(userEntry("u9", "u1", "orphan"))}\n`);
  });

  it("repair prints ids from the file without their control characters", { timeout: 120_000 }, async () => {
    const { fs, path } = await damaged(`${H}\n${U1}\n${line(userEntry("x\u001b]52;c;aGk=\u0007", "gone\u001b[2J", "orphan"))}\n`);
    const r = await runCli(["repair", path], { fs });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /\[missing-parent\] Entry "x \]52;c;aGk= " has parent "gone \[2J"/);
    assert.doesNotMatch(r.stdout + r.stderr, /[\u0007\u001b]/);
  });

  it("repair --json gives each judgement its fix command, quoted for the shell", { timeout: 120_000 }, async () => {
    const fs = memoryFs();
    const path = `${sessionDir()}/it's here.jsonl`;
    await writeText(fs, path, `${H}\n${line(userEntry("a", "b", "x"))}\n${line(userEntry("b", "a", "y"))}\n`);
    const r = await runCli(["repair", path, "--json"], { fs });
    assert.equal(r.code, 1);
    const [result] = JSON.parse(r.stdout);
    assert.deepEqual(result.judgements.map((j: { code: string; fixCommand: string }) => [j.code, j.fixCommand]), [
      ["cycle", `pi-session repair '${sessionDir()}/it'\\''s here.jsonl' --break-cycles`],
    ]);
  });

  it("repair leaves a line it cannot take apart as it is, and exits 1", { timeout: 120_000 }, async () => {
    const text = `${H}\nnot json\n${U1}\n`;
    const { fs, path } = await damaged(text);
    const r = await runCli(["repair", path], { fs });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /:2: \[malformed-json\] Line 2 is not valid JSON .*; left as it is/);
    assert.equal(await readText(fs, path), text);
    assert.equal(await fs.stat(`${path}.repair.bak`), null);
  });

  it("repair refuses a named file that is not a session (exit 3) and passes over one in a folder", { timeout: 120_000 }, async () => {
    const fs = memoryFs();
    const bad = `${sessionDir()}/notes.jsonl`;
    await writeText(fs, bad, "\0\0\0\0");
    await addSession(fs, "ok-1", [userEntry("u1", null, "hi")]);
    const named = await runCli(["repair", bad], { fs });
    assert.equal(named.code, 3);
    assert.match(named.stderr, /error: .*notes\.jsonl is not a pi session/);
    const folder = await runCli(["repair", sessionDir()], { fs });
    assert.equal(folder.code, 0, folder.stderr);
    assert.match(folder.stderr, /skipped: .*notes\.jsonl \(not a pi session\)/);
    assert.equal(await readText(fs, bad), "\0\0\0\0");
  });

  it("repair of a reference that names nothing exits 2", { timeout: 120_000 }, async () => {
    const r = await runCli(["repair", "no-such-session"], { fs: memoryFs() });
    assert.equal(r.code, 2);
  });

  it("repair keeps a line pi appends while the file is being rewritten", { timeout: 120_000 }, async () => {
    const { fs: inner, path } = await damaged();
    const late = `${line(userEntry("u4", "u3", "appended meanwhile"))}\n`;
    let appended = false;
    // pi appends without our lock: here, right when the new file is being written.
    const fs = wrap(inner, {
      writeAtomic: async (p, data, options) => {
        if (!appended && p !== path) {
          appended = true;
          await inner.append(path, new TextEncoder().encode(late));
        }
        return inner.writeAtomic(p, data, options);
      },
    });
    const r = await runCli(["repair", path], { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(appended);
    assert.equal(await readText(inner, path), REPAIRED + late);
    assert.match(r.stdout, /1 line appended meanwhile kept at the end/);
  });

  it("repair loses no line pi appends at any moment of the rewrite (each file operation in turn)", { timeout: 120_000 }, async () => {
    for (let moment = 0; ; moment++) {
      const { fs: inner, path } = await damaged();
      const late = `${line(userEntry("late", "u3", `appended at operation ${moment}`))}\n`;
      let calls = 0;
      const maybeAppend = async () => {
        if (calls++ === moment) await inner.append(path, new TextEncoder().encode(late));
      };
      const r = await runCli(["repair", path], { fs: beforeEach(inner, maybeAppend) });
      assert.equal(r.code, 0, `moment ${moment}: ${r.stderr}`);
      if (calls <= moment) {
        assert.ok(moment > 5, "the loop saw too few operations");
        break;
      }
      assert.equal(await readText(inner, path), REPAIRED + late, `moment ${moment}`);
      assert.equal(await readText(inner, `${path}.rejected`), `${A1.slice(0, 40)}\n`, `moment ${moment}`);
    }
  });

  it("repair says so (exit 3) when the .rejected file cannot be written, and the backup still holds those bytes", { timeout: 120_000 }, async () => {
    const { fs: inner, path } = await damaged();
    const fs = wrap(inner, {
      append: (p, data, options) =>
        p.endsWith(".rejected") ? Promise.reject(new FsError("Other", p, `Cannot write "${p}": no space left on device`)) : inner.append(p, data, options),
    });
    const r = await runCli(["repair", path], { fs });
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.match(r.stderr, /warning: could not write .*\.rejected \(Cannot write .*no space left on device\); the bytes set aside are in the backup/);
    assert.equal(await readText(inner, path), REPAIRED);
    assert.equal(await readText(inner, `${path}.repair.bak`), DAMAGED);
  });

  it("repair on disk: the backup holds the original byte for byte, and a read-only file is refused", { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "pi-repair-"));
    try {
      const path = join(dir, "s.jsonl");
      await writeFile(path, DAMAGED);
      const r = await runCli(["repair", path], { fs: nodeFileSystem });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await readFile(path, "utf8"), REPAIRED);
      assert.equal(await readFile(`${path}.repair.bak`, "utf8"), DAMAGED);
      // Every byte of the original that the repaired file lacks is padding or in .rejected.
      const rejected = await readFile(`${path}.rejected`, "utf8");
      assert.equal(DAMAGED.replaceAll("\0", "").replace(A1.slice(0, 40), ""), REPAIRED);
      assert.equal(rejected, `${A1.slice(0, 40)}\n`);
      const locked = join(dir, "ro.jsonl");
      await writeFile(locked, DAMAGED);
      await chmod(locked, 0o444);
      const ro = await runCli(["repair", locked], { fs: nodeFileSystem });
      assert.equal(ro.code, 3);
      assert.match(ro.stderr, /read-only/);
      assert.equal(await readFile(locked, "utf8"), DAMAGED);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("repair gives pi's own reader back the entries it dropped", { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "pi-repair-"));
    try {
      const path = join(dir, "s.jsonl");
      await writeFile(path, DAMAGED);
      const ref = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
      const ids = () => ref.loadEntriesFromFile(path).map((e: { id: string }) => e.id);
      assert.deepEqual(ids(), ["rep-1", "u1"]);
      assert.equal((await runCli(["repair", path], { fs: nodeFileSystem })).code, 0);
      assert.deepEqual(ids(), ["rep-1", "u1", "u2", "u3"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
