/**
 * Each query's value is what its command prints with `--json` (stamped with `versioned`), so
 * that any surface giving the value gives the CLI's answer.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { usageBlockReport } from "../../src/query/blocks.ts";
import { sessionContext } from "../../src/query/context.ts";
import { diskUse } from "../../src/query/du.ts";
import { fileSessions } from "../../src/query/files.ts";
import { sessionInfo } from "../../src/query/info.ts";
import { versioned } from "../../src/query/json-version.ts";
import { searchText } from "../../src/query/search.ts";
import { usageStats } from "../../src/query/stats.ts";
import { sessionTranscript } from "../../src/query/transcript.ts";
import { sessionTree } from "../../src/query/tree.ts";
import { addSession, assistantEntry, memoryFs, runCli, userEntry } from "../cli/_harness.ts";
import { testEnv } from "./_env.ts";

async function twoSessions() {
  const fs = memoryFs();
  const read = { type: "toolCall", id: "t1", name: "read", arguments: { path: "src/parser.ts" } };
  const reader = assistantEntry("a1", "u1", "reading");
  (reader.message as { content: unknown[] }).content.push(read);
  await addSession(fs, "abcd1234", [userEntry("u1", null, "fix the zebra parser"), reader, userEntry("u2", "a1", "thanks"), { type: "label", id: "l1", parentId: "u2", timestamp: "2025-06-01T10:00:03.000Z", targetId: "u1", label: "start" }]);
  await addSession(fs, "ef561234", [userEntry("u1", null, "another zebra"), assistantEntry("a1", "u1", "done")]);
  return fs;
}

test("each query's value, versioned, is what its command prints with --json", async () => {
  const fs = await twoSessions();
  const { env } = testEnv(fs);
  const cases: [string[], () => Promise<{ value: unknown }>][] = [
    [["info", "abcd"], () => sessionInfo(env, { ref: "abcd" })],
    [["tree", "abcd", "--filter", "all"], () => sessionTree(env, { ref: "abcd", filter: "all" })],
    [["show", "abcd", "--leaf", "label:start"], () => sessionTranscript(env, { ref: "abcd", leaf: "label:start" })],
    [["search", "zebra"], () => searchText(env, { query: "zebra" })],
    [["stats", "--by", "session", "--tz", "UTC"], () => usageStats(env, { by: "session", tz: "UTC" })],
    [["blocks", "--all"], () => usageBlockReport(env, { all: true })],
    [["files", "src"], () => fileSessions(env, { path: "src" })],
    [["du", "--limit", "1"], () => diskUse(env, { limit: 1 })],
  ];
  for (const [argv, query] of cases) {
    const cli = await runCli([...argv, "--json"], { fs });
    assert.equal(cli.code, 0, `${argv.join(" ")}: ${cli.stderr}`);
    assert.deepEqual(versioned((await query()).value), JSON.parse(cli.stdout), argv.join(" "));
  }
});

test("sessionContext() gives context --format json and llm as they are, unstamped", async () => {
  const fs = await twoSessions();
  const { env } = testEnv(fs);
  for (const format of ["json", "llm"] as const) {
    const cli = await runCli(["context", "abcd", "--leaf", "a1", "--format", format], { fs });
    assert.deepEqual((await sessionContext(env, { ref: "abcd", leaf: "a1", format })).value, JSON.parse(cli.stdout), format);
  }
});
