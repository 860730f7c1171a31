/**
 * `listSessions()`: the value `list --json` prints, and cursor paging that walks the same order
 * a page at a time without repeating or skipping a session.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { listSessions, type ListSort } from "../../src/query/list.ts";
import { QueryError } from "../../src/query/errors.ts";
import { addSession, memoryFs, runCli } from "../cli/_harness.ts";
import { testEnv } from "./_env.ts";

/** A user message at minute `minute` of 2025-06-01 with `text`. */
function said(id: string, minute: number, text: string): Record<string, unknown> {
  const at = new Date(Date.UTC(2025, 5, 1, 10, minute));
  return { type: "message", id, parentId: null, timestamp: at.toISOString(), message: { role: "user", content: text, timestamp: at.getTime() } };
}

async function sevenSessions() {
  const fs = memoryFs();
  // Two share a minute, so that the order has a tie the cursor must get past.
  const minutes = [5, 1, 9, 3, 3, 7, 2];
  for (const [i, minute] of minutes.entries()) await addSession(fs, `s${i}aaaa-0000`, [said(`u${i}`, minute, `task number ${i} ${"x".repeat(i)}`)]);
  return fs;
}

test("listSessions() gives what list --json prints, in every sort order", async () => {
  const fs = await sevenSessions();
  for (const sort of ["modified", "created", "name", "messages", "size"] as ListSort[]) {
    const cli = await runCli(["list", "--json", "--sort", sort], { fs });
    const { value, nextCursor } = await listSessions(testEnv(fs).env, { sort });
    assert.deepEqual(value, JSON.parse(cli.stdout), sort);
    assert.equal(nextCursor, null, sort);
  }
});

test("listSessions() pages through the whole list with nextCursor, in the same order, for every sort", async () => {
  const fs = await sevenSessions();
  for (const sort of ["modified", "created", "name", "messages", "size"] as ListSort[]) {
    const { env } = testEnv(fs);
    const whole = (await listSessions(env, { sort })).value.map((s) => s.id);
    const paged: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listSessions(env, { sort, limit: 3, cursor });
      paged.push(...page.value.map((s) => s.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor !== undefined);
    assert.deepEqual(paged, whole, sort);
    assert.equal(pages, 3, sort);
  }
});

test("listSessions() goes on after a page's last session even when that session is gone since", async () => {
  const fs = await sevenSessions();
  const { env } = testEnv(fs);
  const whole = (await listSessions(env, {})).value;
  const first = await listSessions(env, { limit: 2 });
  await fs.remove(first.value[1].path);
  const next = await listSessions(env, { limit: 2, cursor: first.nextCursor! });
  assert.deepEqual(next.value.map((s) => s.id), whole.slice(2, 4).map((s) => s.id));
});

test("listSessions() refuses a cursor it did not make, and a bad limit, with QueryErrors", async () => {
  const { env } = testEnv(await sevenSessions());
  await assert.rejects(listSessions(env, { cursor: "not-a-cursor" }), (e) => e instanceof QueryError && e.code === "bad-cursor" && e.exitCode === 2);
  await assert.rejects(listSessions(env, { limit: "0" }), (e) => e instanceof QueryError && /--limit must be a whole number above 0, not "0"/.test(e.message));
});

test("listSessions() gives the short ids a table prints only when asked", async () => {
  const { env } = testEnv(await sevenSessions());
  assert.equal((await listSessions(env, {})).shortIds, undefined);
  const { value, shortIds } = await listSessions(env, { shortIds: true });
  for (const s of value) assert.ok(s.id.startsWith(shortIds!.get(s.id)!));
});

test("listSessions() keeps only sessions modified since a day or a span back, for surfaces that ask", async () => {
  const { env } = testEnv(await sevenSessions());
  const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 10, minute)).toISOString();
  const since = (await listSessions(env, { since: at(5) })).value;
  assert.deepEqual(since.map((s) => s.modified).sort(), [at(5), at(7), at(9)]);
  assert.equal((await listSessions(env, { since: "2025-06-02", tz: "UTC" })).value.length, 0);
  assert.equal((await listSessions(env, { since: "2025-06-01", tz: "UTC" })).value.length, 7);
  await assert.rejects(listSessions(env, { since: "yesterday-ish" }), (e) => e instanceof QueryError && /^--since: /.test(e.message));
});

test("listSessions() keeps only sessions modified until a day or an instant, and between since and until", async () => {
  const fs = await sevenSessions();
  const { env } = testEnv(fs);
  const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 10, minute)).toISOString();
  // An instant: strictly before it, as search and stats take --until.
  assert.deepEqual((await listSessions(env, { until: at(3) })).value.map((s) => s.modified).sort(), [at(1), at(2)]);
  assert.deepEqual((await listSessions(env, { since: at(3), until: at(7) })).value.map((s) => s.modified).sort(), [at(3), at(3), at(5)]);
  assert.equal((await listSessions(env, { until: "2025-05-31", tz: "UTC" })).value.length, 0);
  assert.equal((await listSessions(env, { until: "2025-06", tz: "UTC" })).value.length, 7);
  await assert.rejects(listSessions(env, { until: "soon" }), (e) => e instanceof QueryError && /^--until: /.test(e.message));
  for (const argv of [["--until", at(3)], ["--since", at(3), "--until", at(7)]]) {
    const cli = await runCli(["list", "--json", ...argv], { fs });
    assert.deepEqual((await listSessions(env, { until: argv.at(-1), since: argv.length > 2 ? argv[1] : undefined })).value, JSON.parse(cli.stdout), argv.join(" "));
  }
});

/** An assistant reply by `provider/model`. */
function replied(id: string, parentId: string, provider: string, model: string): Record<string, unknown> {
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 } };
  const message = { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider, model, usage, stopReason: "stop", timestamp: 1748772002000 };
  return { type: "message", id, parentId, timestamp: "2025-06-01T10:00:02.000Z", message };
}

test("listSessions() keeps only sessions with replies from a model that contains the text, as list --model", async () => {
  const fs = memoryFs();
  await addSession(fs, "m1aaaa-0000", [said("u1", 1, "one"), replied("a1", "u1", "anthropic", "claude-sonnet-4")]);
  await addSession(fs, "m2aaaa-0000", [said("u1", 2, "two"), replied("a1", "u1", "openai", "gpt-5"), replied("a2", "a1", "anthropic", "claude-opus-4")]);
  await addSession(fs, "m3aaaa-0000", [said("u1", 3, "three")]);
  const { env } = testEnv(fs);
  const ids = async (model: string) => (await listSessions(env, { model })).value.map((s) => s.id).sort();
  assert.deepEqual(await ids("claude"), ["m1aaaa-0000", "m2aaaa-0000"]);
  assert.deepEqual(await ids("Sonnet"), ["m1aaaa-0000"]);
  assert.deepEqual(await ids("openai/gpt-5"), ["m2aaaa-0000"]);
  assert.deepEqual(await ids("llama"), []);
  for (const model of ["claude", "gpt", "llama"]) {
    const cli = await runCli(["list", "--json", "--model", model], { fs });
    assert.deepEqual((await listSessions(env, { model })).value, JSON.parse(cli.stdout), model);
  }
});
