/**
 * What `describeError` tells a user for file-system failures: exit 3, the failure, and a hint
 * that fits what was being done (a failed write is not a "readable session file" problem).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { describeError } from "../../src/cli/errors.ts";
import { fsError } from "../../src/io/_map-error.ts";
import { FsError } from "../../src/io/file-system.ts";

describe("describeError for file-system errors", () => {
  it("a write on a read-only mount hints at the mount, not at the file's format", () => {
    const error = fsError("Other", { verb: "write", path: "/sessions/a.jsonl" }, "EROFS: read-only file system");
    const { exitCode, lines } = describeError(error);
    assert.equal(exitCode, 3);
    assert.deepEqual(lines, [
      'pi-session: Cannot write "/sessions/a.jsonl": EROFS: read-only file system',
      "hint: Check that the place can be written: not a read-only mount, and the disk is not full",
    ]);
  });

  it("a failed read hints at the file", () => {
    const { lines } = describeError(fsError("Other", { verb: "read", path: "/s/a.jsonl" }, "EIO: i/o error"));
    assert.equal(lines[1], "hint: Check that the path is a readable session file");
  });

  it("an error that carries its own hint (a held lock) keeps it", () => {
    const error = new FsError("Other", "/s/a.jsonl", "Cannot lock /s/a.jsonl: held by pid 42", { hint: "Wait for pid 42 on host h (since 10:00) to finish" });
    assert.deepEqual(describeError(error), { exitCode: 3, lines: ["pi-session: Cannot lock /s/a.jsonl: held by pid 42", "hint: Wait for pid 42 on host h (since 10:00) to finish"] });
  });

  it("missing files and permissions keep their own hints", () => {
    assert.match(describeError(fsError("NotFound", { verb: "read", path: "/x" })).lines[1], /pi-session list --all/);
    assert.equal(describeError(fsError("NotFound", { verb: "append", path: "/no/dir/out.html" })).lines[1], "hint: Check that the folder to write in exists");
    assert.match(describeError(fsError("PermissionDenied", { verb: "append", path: "/x" })).lines[1], /permissions/);
  });
});
