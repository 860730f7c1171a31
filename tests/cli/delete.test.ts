/**
 * Tests for `delete` and the trash it uses: the `trash` program first, the freedesktop
 * home trash as fallback (layout and .trashinfo), confirmation, refusals and failures.
 * @module
 */
import assert from "node:assert/strict";
import { chmod, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ExecFn } from "../../src/cli/deps.ts";
import { moveToTrash, trashInfo } from "../../src/cli/trash.ts";
import { type FileSystem, FsError } from "../../src/io/file-system.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { addSession, assistantEntry, fingerprint, HOME, memoryFs, NOW, readOnlyFs, readText, runCli, userEntry, writeText } from "./_harness.ts";

const TRASH = `${HOME}/.local/share/Trash`;
const two = (n: number) => String(n).padStart(2, "0");
const LOCAL_NOW = `${NOW.getFullYear()}-${two(NOW.getMonth() + 1)}-${two(NOW.getDate())}T${two(NOW.getHours())}:${two(NOW.getMinutes())}:${two(NOW.getSeconds())}`;

async function setup() {
  const fs = memoryFs();
  const a = await addSession(fs, "aaaa1111", [userEntry("u1", null, "hi"), assistantEntry("a1", "u1", "hello")]);
  const b = await addSession(fs, "bbbb2222", [userEntry("u1", null, "other")]);
  return { fs, a, b };
}

/** An `exec` that records calls and behaves like `trash` (removes the file) when `works`. */
function fakeTrash(fs: FileSystem, works: boolean) {
  const calls: [string, string[]][] = [];
  const exec: ExecFn = async (command, args) => {
    calls.push([command, args]);
    if (!works) return { code: 1, stderr: "trash: failed" };
    await fs.remove(args[args.length - 1]);
    return { code: 0, stderr: "" };
  };
  return { calls, exec };
}

describe("delete", () => {
  it("delete runs the trash program first, as pi does", async () => {
    const { fs, a, b } = await setup();
    const { calls, exec } = fakeTrash(fs, true);
    const r = await runCli(["delete", "aaaa", "--yes"], { fs, exec });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `moved to trash: ${a}\n`);
    assert.deepEqual(calls, [["trash", [a]]]);
    assert.equal(await fs.stat(a), null);
    assert.notEqual(await fs.stat(b), null);
    assert.equal(await fs.stat(TRASH), null);
  });

  it("delete falls back to the freedesktop trash with a .trashinfo", async () => {
    const { fs, a } = await setup();
    const before = await readText(fs, a);
    const r = await runCli(["delete", a, "--yes", "--json"], { fs });
    assert.equal(r.code, 0, r.stderr);
    const name = a.slice(a.lastIndexOf("/") + 1);
    assert.deepEqual(JSON.parse(r.stdout), [{ path: a, action: "trashed", trashPath: `${TRASH}/files/${name}` }]);
    assert.equal(await fs.stat(a), null);
    assert.equal(await readText(fs, `${TRASH}/files/${name}`), before);
    const info = await readText(fs, `${TRASH}/info/${name}.trashinfo`);
    assert.equal(info, `[Trash Info]\nPath=${a}\nDeletionDate=${LOCAL_NOW}\n`);
  });

  it("delete honours XDG_DATA_HOME and picks NAME.2 on a name collision", async () => {
    const fs = memoryFs();
    const first = await addSession(fs, "cccc3333", [], { dir: "/data/one" });
    const second = await addSession(fs, "cccc3333", [], { dir: "/data/two words" });
    const env = { XDG_DATA_HOME: "/xdg" };
    assert.equal((await runCli(["delete", first, "--yes"], { fs, env })).code, 0);
    const r = await runCli(["delete", second, "--yes", "--json"], { fs, env });
    assert.equal(r.code, 0, r.stderr);
    const name = "2025-06-01T10-00-00-000Z_cccc3333.jsonl";
    assert.equal(JSON.parse(r.stdout)[0].trashPath, `/xdg/Trash/files/${name}.2`);
    assert.notEqual(await fs.stat(`/xdg/Trash/files/${name}`), null);
    const info = await readText(fs, `/xdg/Trash/info/${name}.2.trashinfo`);
    assert.match(info, /^Path=\/data\/two%20words\/2025-06-01T10-00-00-000Z_cccc3333\.jsonl$/m);
  });

  it("delete --permanent unlinks without the trash", async () => {
    const { fs, a } = await setup();
    const { calls, exec } = fakeTrash(fs, true);
    const r = await runCli(["delete", "aaaa1111", "--permanent", "--yes"], { fs, exec });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `deleted: ${a}\n`);
    assert.deepEqual(calls, []);
    assert.equal(await fs.stat(a), null);
  });

  it("delete uses the freedesktop trash when the trash program fails", async () => {
    const { fs, a } = await setup();
    const { calls, exec } = fakeTrash(fs, false);
    const r = await runCli(["delete", "aaaa", "--yes"], { fs, exec });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(calls.length, 1);
    assert.equal(await fs.stat(a), null);
    assert.equal((await fs.list(`${TRASH}/files`)).length, 1);
  });

  it("delete refuses files that are not sessions and touches nothing", async () => {
    const { fs, a } = await setup();
    await writeText(fs, "/work/proj/notes.jsonl", "just text\n");
    const before = await fingerprint(fs, "/");
    const r = await runCli(["delete", a, "notes.jsonl", "--yes"], { fs });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /notes\.jsonl is not a pi session/);
    assert.equal(await fingerprint(fs, "/"), before);
  });

  it("delete rejects an unknown reference with exit 2", async () => {
    const { fs } = await setup();
    const r = await runCli(["delete", "zzzz", "--yes"], { fs });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /No session found matching "zzzz"/);
  });

  it("delete refuses to run without --yes when not on a terminal", async () => {
    const { fs, a } = await setup();
    const r = await runCli(["delete", a], { fs, confirm: async () => true });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Refusing to delete without --yes when not on a terminal/);
    assert.notEqual(await fs.stat(a), null);
  });

  it("delete asks on a terminal and stops when the answer is no", async () => {
    const { fs, a, b } = await setup();
    const questions: string[] = [];
    const confirm = async (q: string) => (questions.push(q), false);
    const r = await runCli(["delete", a, b], { fs, stdinIsTTY: true, confirm });
    assert.equal(r.code, 1);
    assert.deepEqual(questions, ["Delete 2 session(s)? They go to the trash"]);
    assert.notEqual(await fs.stat(a), null);
    const yes = await runCli(["delete", a], { fs, stdinIsTTY: true, confirm: async () => true });
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(await fs.stat(a), null);
  });

  it("delete reports a read-only session directory with exit 3 and keeps the file", async () => {
    const { fs, a } = await setup();
    const dir = a.slice(0, a.lastIndexOf("/"));
    const r = await runCli(["delete", a, "--yes"], { fs: readOnlyFs(fs, [dir]) });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /permission denied/);
    assert.notEqual(await fs.stat(a), null);
    assert.deepEqual(await fs.list(`${TRASH}/info`), []);
  });

  it("delete does not unlink a file it cannot move across devices", async () => {
    const { fs, a } = await setup();
    const crossDevice: FileSystem = {
      read: fs.read.bind(fs),
      stat: fs.stat.bind(fs),
      list: fs.list.bind(fs),
      append: fs.append.bind(fs),
      writeAtomic: fs.writeAtomic.bind(fs),
      remove: fs.remove.bind(fs),
      mkdir: fs.mkdir.bind(fs),
      link: fs.link.bind(fs),
      realPath: fs.realPath.bind(fs),
      rename: async (from) => {
        throw new FsError("Other", from, `Cannot rename "${from}": EXDEV: cross-device link not permitted`, { cause: { code: "EXDEV" } });
      },
    };
    const r = await runCli(["delete", a, "--yes", "--json"], { fs: crossDevice });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /on another device/);
    assert.equal(JSON.parse(r.stdout)[0].action, "failed");
    assert.notEqual(await fs.stat(a), null);
    assert.deepEqual(await fs.list(`${TRASH}/info`), []);
  });

  it("delete reports a real read-only directory with exit 3", { skip: process.getuid?.() === 0 ? "root ignores permissions" : false }, async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-session-delete-"));
    const dir = join(root, "sessions");
    try {
      const path = await addSession(nodeFileSystem, "dddd4444", [], { dir });
      await chmod(dir, 0o555);
      const r = await runCli(["delete", path, "--yes"], { fs: nodeFileSystem, env: { XDG_DATA_HOME: join(root, "data") } });
      assert.equal(r.code, 3);
      assert.ok((await stat(path)).isFile());
    } finally {
      await chmod(dir, 0o755).catch(() => {});
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("moveToTrash()", () => {
  it("moveToTrash() passes -- before a path that starts with a dash", async () => {
    const fs = memoryFs();
    await writeText(fs, "/work/proj/-odd.jsonl", "{}\n");
    const { calls, exec } = fakeTrash(fs, true);
    const storage = { env: () => undefined, home: HOME, processCwd: "/work/proj" };
    assert.deepEqual(await moveToTrash({ fs, storage, exec, now: () => NOW }, "-odd.jsonl"), { via: "trash-command" });
    assert.deepEqual(calls, [["trash", ["--", "-odd.jsonl"]]]);
  });

  it("trashInfo() percent-encodes the path and writes local time", () => {
    const text = trashInfo("/a b/ü%.jsonl", new Date(2026, 0, 2, 3, 4, 5));
    assert.equal(text, "[Trash Info]\nPath=/a%20b/%C3%BC%25.jsonl\nDeletionDate=2026-01-02T03:04:05\n");
  });
});
