/**
 * The fast context read (`readContextFromFile`: a skeleton pass, then only the lines the context
 * needs) must give exactly what `buildSessionContext` gives on the fully parsed file, which the
 * core differential test holds equal to pi 1.6.0. Checked at entries all over a generated corpus,
 * with wanted lines read as one merged range and as one range each.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { buildSessionContext, parseSession } from "../../src/core/mod.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { readContextFromFile } from "../../src/session/read-context.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-read-context-"));
after(() => rmSync(work, { recursive: true, force: true }));
const files = await generateSessions({ dir: join(work, "agent"), count: 120, seed: 7_2026 });
const fs = detectFileSystem();

/** Every entry of a short session; about 24 spread over a long one, always with the last. */
function sampleLeaves(ids: string[]): (string | null | undefined)[] {
  const step = Math.max(1, Math.ceil(ids.length / 24));
  return [...ids.filter((_, i) => i % step === 0 || i === ids.length - 1), null, undefined];
}

test("readContextFromFile equals buildSessionContext at entries all over 120 generated sessions", { timeout: 600_000 }, async () => {
  let checked = 0;
  for (const file of files) {
    const { entries } = parseSession(readFileSync(file));
    for (const leafId of sampleLeaves(entries.map((e) => e.id))) {
      const expected = buildSessionContext(entries, leafId);
      for (const mergeGap of [0, undefined]) {
        const { context } = await readContextFromFile(fs, file, { leafId, mergeGap });
        assert.deepEqual(context, expected, `${file} at leaf ${leafId} (merge gap ${mergeGap ?? "default"})`);
        checked++;
      }
    }
  }
  assert.ok(checked > 2_000, `only ${checked} contexts were compared`);
  console.log(`read-context: ${checked} contexts compared over ${files.length} sessions`);
});

test("readContextFromFile reports a damaged line on the path and still equals the full read", async () => {
  const source = files.find((f) => readFileSync(f, "utf8").split("\n").length > 12)!;
  const lines = readFileSync(source, "utf8").split("\n");
  lines[5] = lines[5].slice(0, 20); // a line cut short in the middle of the file
  const damaged = join(work, "damaged.jsonl");
  writeFileSync(damaged, lines.join("\n"));
  const full = parseSession(readFileSync(damaged));
  const { context, issues } = await readContextFromFile(fs, damaged);
  assert.deepEqual(context, buildSessionContext(full.entries));
  assert.deepEqual(issues.map((i) => [i.line, i.code]), full.issues.map((i) => [i.line, i.code]));
  assert.ok(issues.some((i) => i.line === 6 && i.code === "malformed-json"), JSON.stringify(issues));
});
