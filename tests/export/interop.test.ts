/**
 * Exports read by other programs, on real files: pi 1.6.0 opens our JSONL export and builds
 * the same context as the branch it came from; DuckDB loads our NDJSON rows and its sums
 * equal `info`'s usage totals per session and `stats --all` across them. Node only: DuckDB is a Node-API addon, and the brief pins
 * the reference check to Node.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { buildSessionContext, parseSession } from "../../src/core/mod.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { runCli } from "../cli/_harness.ts";
import { fixtureText, SESSION_ID, SIDE_BRANCH } from "./_fixture.ts";

const g = globalThis as { Deno?: unknown; Bun?: unknown };
const notNode = g.Deno ? "Deno" : g.Bun ? "Bun" : undefined;
const skip = notNode ? `${notNode}: these interop checks load a Node-API addon (DuckDB) and pi's Node build; they run under Node` : false;

let work = "";

async function cli(args: string[]) {
  return runCli(args, { fs: nodeFileSystem, processCwd: work, home: work, env: { PI_CODING_AGENT_DIR: join(work, "agent") } });
}

describe("export interop", { skip }, () => {
  before(() => {
    work = mkdtempSync(join(tmpdir(), "pi-session-export-interop-"));
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("pi 1.6.0 opens the JSONL export and builds the branch's context", async () => {
    const source = join(work, "fixture.jsonl");
    writeFileSync(source, fixtureText());
    const out = join(work, "exported.jsonl");
    const run = await cli(["export", source, "--format", "jsonl", "--leaf", "a0000004", "-o", out]);
    assert.equal(run.code, 0, run.stderr);
    const ref = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
    const dir = join(work, "pi-sessions");
    mkdirSync(dir, { recursive: true });
    const manager = ref.SessionManager.open(out, dir);
    assert.equal(manager.getSessionId(), SESSION_ID);
    assert.deepEqual(manager.getBranch().map((e: { id: string }) => e.id), SIDE_BRANCH);
    assert.equal(manager.getLabel("a0000003"), "fixed </script><b>label</b>");
    const original = parseSession(readFileSync(source));
    assert.deepEqual(manager.buildSessionContext(), buildSessionContext(original.entries, "a0000004"));
  });

  it("DuckDB loads the NDJSON rows of generated sessions; sums equal info's usage totals and stats", async () => {
    const files = await generateSessions({ dir: join(work, "agent"), count: 4, seed: 7 });
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    for (const [i, file] of files.entries()) {
      const out = join(work, `rows-${i}.ndjson`);
      const run = await cli(["export", file, "--format", "ndjson", "-o", out]);
      assert.equal(run.code, 0, run.stderr);
      const info = JSON.parse((await cli(["info", file, "--json"])).stdout);
      const reader = await connection.runAndReadAll(
        `select count(*)::integer as n, coalesce(sum(total_tokens), 0)::bigint as tokens, coalesce(sum(input_tokens), 0)::bigint as input,
           coalesce(sum(cost), 0)::double as cost, count(distinct session_id)::integer as sessions
         from read_json_auto('${out}', format = 'newline_delimited')`,
      );
      const [row] = reader.getRowObjectsJson() as { n: number; tokens: string; input: string; cost: number; sessions: number }[];
      const entries = parseSession(readFileSync(file)).entries;
      assert.equal(row.n, entries.length, file);
      assert.equal(row.sessions, entries.length > 0 ? 1 : 0);
      assert.equal(Number(row.tokens), info.usage.totalTokens, file);
      assert.equal(Number(row.input), info.usage.input, file);
      assert.ok(Math.abs(row.cost - info.usage.cost.total) < 1e-9, `${row.cost} vs ${info.usage.cost.total}`);
    }
    // Across sessions, an entry copied by a fork keeps its id and timestamp: counted once, the
    // rows sum to `stats --all`.
    const stats = JSON.parse((await cli(["stats", "--all", "--json"])).stdout);
    const reader = await connection.runAndReadAll(
      `select coalesce(sum(tokens), 0)::bigint as tokens, coalesce(sum(cost), 0)::double as cost from (
         select any_value(total_tokens) as tokens, any_value(cost) as cost
         from read_json_auto('${join(work, "rows-*.ndjson")}', format = 'newline_delimited')
         group by entry_id, timestamp)`,
    );
    const [sum] = reader.getRowObjectsJson() as { tokens: string; cost: number }[];
    assert.equal(Number(sum.tokens), stats.totals.totalTokens);
    assert.ok(Math.abs(sum.cost - stats.totals.cost.total) < 1e-9, `${sum.cost} vs ${stats.totals.cost.total}`);
    connection.closeSync();
  });
});
