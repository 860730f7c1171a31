/**
 * How errors become HTTP answers: exit code 2 → 400 (404 when a reference names nothing),
 * 3 → 422 (404 when the file is gone), bugs → 500 saying nothing of their insides.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FsError } from "../../src/io/file-system.ts";
import { describeApiError, statusFor } from "../../src/serve/http-error.ts";
import { EntryNotFoundError, NotASessionError, SessionError } from "../../src/session/errors.ts";

describe("describeApiError()", () => {
  it("maps exit codes to statuses, unknown references to 404", () => {
    assert.equal(statusFor("bad-option", 2), 400);
    assert.equal(statusFor("no-session", 2), 404);
    assert.equal(statusFor("entry-not-found", 2), 404);
    assert.equal(statusFor("not-a-session", 3), 422);
    assert.equal(describeApiError(new EntryNotFoundError("x", "/s.jsonl")).status, 404);
    assert.equal(describeApiError(new EntryNotFoundError("a", "/s.jsonl", ["ab", "ac"])).status, 400);
    assert.equal(describeApiError(new NotASessionError("/s.jsonl")).status, 422);
  });

  it("answers 422 for a file that cannot be read, 404 for one gone since it was listed", () => {
    const denied = describeApiError(new FsError("PermissionDenied", "/s.jsonl", 'Cannot read "/s.jsonl": permission denied'));
    assert.deepEqual([denied.status, denied.body.code], [422, "permission-denied"]);
    const gone = describeApiError(new FsError("NotFound", "/s.jsonl", 'Cannot read "/s.jsonl": no such file or directory'));
    assert.deepEqual([gone.status, gone.body.code], [404, "not-found"]);
  });

  it("hides a bug's message and stack behind a 500", () => {
    const { status, body, bug } = describeApiError(new TypeError("x is undefined at /secret/path.ts:12"));
    assert.equal(status, 500);
    assert.equal(bug, true);
    assert.doesNotMatch(JSON.stringify(body), /secret|undefined/);
  });

  it("keeps a SessionError's code, message and hint", () => {
    const { body } = describeApiError(new SessionError("bad-cursor", "Cannot continue", 2, "Start again"));
    assert.deepEqual(body, { code: "bad-cursor", message: "Cannot continue", hint: "Start again" });
  });
});
