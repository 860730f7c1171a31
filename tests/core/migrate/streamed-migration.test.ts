/**
 * `StreamedMigration` says and writes what reading a file whole says and migrating it whole
 * writes (`parseSession`, then a JSON line per migrated object): a differential over old files of
 * every shape (pi's own v1 and v2 forms from the session generator, the examples, hand-made lines
 * that are spliced and lines that must be parsed), the hostile corpus, in chunks of every size.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateSessions } from "../../../scripts/gen-sessions.ts";
import { StreamedMigration } from "../../../src/core/migrate/streamed-migration.ts";
import { parseSession } from "../../../src/core/read/read-session.ts";
import { toJsonl } from "../../../src/session/entry-builders.ts";
import { hostileCorpus } from "../_hostile-corpus.ts";

const EXAMPLES = fileURLToPath(new URL("../../../examples", import.meta.url));
const enc = (s: string) => new TextEncoder().encode(s);

/** Old files of pi's own forms, from the session generator (about 6% of what it writes). */
async function generatedOldFiles(): Promise<{ name: string; bytes: Uint8Array }[]> {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-streamed-migration-"));
  try {
    const files = await generateSessions({ dir, count: 300, seed: 22 });
    const old = [];
    for (const file of files) {
      const bytes = readFileSync(file);
      const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0x0a))));
      if (!(header.version >= 3)) old.push({ name: file.slice(dir.length), bytes: new Uint8Array(bytes) });
    }
    return old;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const V1_HEADER = '{"type":"session","id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}';
const V2_HEADER = '{"type":"session","version":2,"id":"s2","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}';
const t = (n: number) => `"timestamp":"2025-01-01T00:00:0${n}.000Z"`;

/** Hand-made old files: each line a shape the splice must get right, or must leave to the parser. */
function handMade(): { name: string; bytes: Uint8Array }[] {
  const body = [
    `{"type":"message",${t(1)},"message":{"role":"user","content":"hi"}}`,
    `{"type":"message",${t(2)},"message":{"role":"hookMessage","customType":"h","content":"x"}}`,
    `{"type":"message",${t(3)},"message":{"content":"role later","role":"hookMessage"}}`,
    `{"type":"message",${t(3)},"message":{"role":"hook\\u004dessage","content":"escaped"}}`,
    `{"type": "message", ${t(4)}, "message": {"role": "assistant", "content": []}}`,
    `{"type":"compaction",${t(5)},"summary":"s","firstKeptEntryIndex":1,"tokensBefore":1}`,
    `{"type":"compaction",${t(5)},"summary":"s","firstKeptEntryIndex":"2","tokensBefore":1}`,
    `{"type":"compaction",${t(5)},"summary":"s","firstKeptEntryIndex":99,"firstKeptEntryId":"kept"}`,
    `{"type":"custom","id":"had-one","parentId":"p",${t(6)},"data":{"x":1}}`,
    `{"parentId":null,"type":"custom",${t(6)}}`,
    `{"type":"session","id":"stray",${t(7)},"cwd":"/"}`,
    `{"type":"custom",${t(7)},"data":{"n":1.0,"e":"\\u00e9\\/"}}`,
    `{"type":"custom",${t(7)},"data":{"k":1,"k":2}}`,
    `{"type":"custom",${t(8)},"message":"not an object"}`,
    `{"type":"message",${t(8)},"message":{"role":null}}`,
    `{"type":"custom",${t(8)},"__proto__":{"x":1}}`,
    `{"type":"custom",${t(9)},"text":"${"naïve 日本語 🚀 \\\"q\\\" \\\\ ".repeat(2000)}"}`,
    "",
    "   ",
    "not json at all",
    "[1,2]",
    "42",
    `{"type":"custom",${t(9)},"data":{}}`,
  ];
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const [name, header] of [["v1", V1_HEADER], ["v1 with version", V1_HEADER.replace('"id"', '"version":1,"id"')], ["v2", V2_HEADER]]) {
    files.push({ name, bytes: enc([header, ...body].join("\n") + "\n") });
    files.push({ name: `${name}, CRLF`, bytes: enc([header, ...body].join("\r\n") + "\r\n") });
    files.push({ name: `${name}, BOM, torn tail`, bytes: enc("\ufeff" + [header, ...body].join("\n") + '\n{"type":"custom","time') });
    files.push({ name: `${name}, no newline at the end`, bytes: enc([header, ...body].join("\n")) });
    files.push({ name: `${name}, bad UTF-8`, bytes: new Uint8Array([...enc(header + "\n" + body[0].slice(0, -2)), 0xc3, 0x28, ...enc('"}\n')]) });
  }
  files.push({ name: "empty", bytes: new Uint8Array(0) });
  files.push({ name: "blank lines only", bytes: enc("\n \n") });
  files.push({ name: "no header first", bytes: enc([body[0], V1_HEADER].join("\n") + "\n") });
  files.push({ name: "a bad header", bytes: enc('{"type":"session","id":5}\n' + body[0] + "\n") });
  return files;
}

function migratedWhole(bytes: Uint8Array): { verdict: unknown; text: string | undefined } {
  const file = parseSession(bytes);
  const verdict = { notSession: file.notSession, version: file.version, migrated: file.migrated, issues: file.issues };
  return { verdict, text: file.notSession ? undefined : toJsonl([file.header!, ...file.entries]) };
}

function migratedStreamed(bytes: Uint8Array, chunk: number, write: boolean): { verdict: unknown; text: string | undefined } {
  const parts: string[] = [];
  const decoder = new TextDecoder();
  const migration = new StreamedMigration(write ? { add: (text) => parts.push(text), addBytes: (b) => parts.push(decoder.decode(b)) } : undefined);
  for (let at = 0; at < bytes.length; at += chunk) migration.push(bytes.slice(at, at + chunk));
  const { notSession, version, migrated, issues } = migration.end();
  return { verdict: { notSession, version, migrated, issues }, text: write && !notSession ? parts.join("") : undefined };
}

test("StreamedMigration says and writes what a whole read and migration do, for old files of every shape", { timeout: 300_000 }, async () => {
  const cases = [...handMade(), ...(await generatedOldFiles())];
  for (const dir of ["agent", "broken"]) {
    const root = join(EXAMPLES, dir);
    for (const name of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (name.endsWith(".jsonl")) cases.push({ name: `${dir}/${name}`, bytes: new Uint8Array(readFileSync(join(root, name))) });
    }
  }
  for (const c of hostileCorpus()) cases.push({ name: c.name, bytes: c.bytes });
  let old = 0;
  for (const c of cases) {
    const whole = migratedWhole(c.bytes);
    if ((whole.verdict as { migrated: boolean }).migrated) old++;
    // Chunks of 7 bytes cut every line many times; for the small files, where that stays quick.
    for (const chunk of c.bytes.length < 1_000_000 ? [c.bytes.length || 1, 4096, 7] : [c.bytes.length, 65536]) {
      const streamed = migratedStreamed(c.bytes, chunk, true);
      assert.deepEqual(streamed.verdict, whole.verdict, `${c.name}, chunks of ${chunk}: the verdict`);
      assert.equal(streamed.text, whole.text, `${c.name}, chunks of ${chunk}: the migrated lines`);
      assert.deepEqual(migratedStreamed(c.bytes, chunk, false).verdict, whole.verdict, `${c.name}, chunks of ${chunk}: the verdict of a pass that only decides`);
    }
  }
  assert.ok(old >= 25, `${old} old files compared`);
});
