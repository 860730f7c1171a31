/**
 * `migrate` of a big old file (read line by line, `migrate-streamed.ts`) leaves exactly what the
 * whole-file way leaves: the same new file, backup and result, for plain files, refusals, forced
 * drops, dry runs, taken backup names and read-only files; a failed write loses nothing, and a
 * line appended meanwhile is carried over. The threshold is lowered so small files stream.
 * @module
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { FileSystem } from "../../src/io/file-system.ts";
import { type MigrateOptions, migrateFile } from "../../src/cli/migrate-file.ts";
import { wrap } from "./_fs-wrappers.ts";
import { fingerprint, memoryFs, readText, sessionDir, writeText } from "./_harness.ts";

const DIR = sessionDir();
const FILE = `${DIR}/2024-01-01T00-00-00-000Z_legacy-1.jsonl`;
const EXAMPLES = fileURLToPath(new URL("../../examples/agent/sessions/--home-dev-old-project--", import.meta.url));

const V1_LINES = [
  `{"type":"session","id":"legacy-1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj"}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}`,
  `{"type":"message","timestamp":"2024-01-01T00:00:02.000Z","message":{"role":"hookMessage","customType":"note","content":"x","display":true,"timestamp":2}}`,
  `{"type":"compaction","timestamp":"2024-01-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":10}`,
  `{"type": "message", "timestamp":"2024-01-01T00:00:04.000Z","message":{"role":"user","content":"again","timestamp":4}}`,
];
const V1 = V1_LINES.join("\n") + "\n";
const WITH_BAD_LINES = [...V1_LINES.slice(0, 2), "not json", V1_LINES[2], '{"type":"message","timest'].join("\n");

const STREAMED = { streamFrom: 0 };
const BASE: MigrateOptions = { dryRun: false, backup: true, force: false };

function examples(): { name: string; text: string }[] {
  return readdirSync(EXAMPLES).filter((n) => n.endsWith(".jsonl")).map((name) => ({ name, text: readFileSync(join(EXAMPLES, name), "utf8") }));
}

async function run(text: string, options: MigrateOptions, prepare?: (fs: FileSystem) => Promise<void>) {
  const fs = memoryFs();
  await writeText(fs, FILE, text);
  await prepare?.(fs);
  const result = await migrateFile(fs, FILE, options);
  return { result, after: await fingerprint(fs, DIR), file: await readText(fs, FILE) };
}

describe("migrate of a big old file", () => {
  it("migrate streamed leaves the same file, backup and result as the whole-file way", async () => {
    const cases = [{ name: "v1", text: V1 }, { name: "bad lines", text: WITH_BAD_LINES }, ...examples()];
    const variants: [string, Partial<MigrateOptions>, ((fs: FileSystem) => Promise<void>)?][] = [
      ["plain", {}],
      ["--force", { force: true }],
      ["--dry-run", { dryRun: true }],
      ["--no-backup", { backup: false }],
      ["backup name taken", {}, (fs) => writeText(fs, `${FILE}.v1.bak`, "taken\n")],
    ];
    let migrated = 0;
    for (const c of cases) {
      for (const [variant, options, prepare] of variants) {
        const whole = await run(c.text, { ...BASE, ...options }, prepare);
        const streamed = await run(c.text, { ...BASE, ...options, ...STREAMED }, prepare);
        assert.deepEqual(streamed, whole, `${c.name}, ${variant}`);
        if (whole.result.action === "migrated") migrated++;
      }
    }
    assert.ok(migrated >= 8, `${migrated} migrations compared`);
  });

  it("migrate streamed refuses a read-only file and writes nothing", async () => {
    const fs = memoryFs();
    await writeText(fs, FILE, V1);
    const readOnly = wrap(fs, { stat: async (p) => { const s = await fs.stat(p); return s && { ...s, mode: 0o444 }; } });
    const result = await migrateFile(readOnly, FILE, { ...BASE, ...STREAMED });
    assert.equal(result.exitCode, 3);
    assert.equal(await readText(fs, FILE), V1);
    assert.equal(await fs.stat(`${FILE}.v1.bak`), null);
  });

  it("migrate streamed loses nothing when writing the new file fails half way", async () => {
    const fs = memoryFs();
    await writeText(fs, FILE, V1);
    const before = await fingerprint(fs, DIR);
    const failing = wrap(fs, {
      writeAtomic: async (p, data, options) => {
        if (p.endsWith(".bak") || data instanceof Uint8Array) return fs.writeAtomic(p, data, options);
        return fs.writeAtomic(p, (async function* () {
          for await (const chunk of data) {
            yield chunk;
            throw new Error("disk full");
          }
        })(), options);
      },
    });
    const result = await migrateFile(failing, FILE, { ...BASE, ...STREAMED });
    assert.equal(result.action, "error");
    assert.match(result.message ?? "", /disk full/);
    assert.equal(await fingerprint(fs, DIR), before);
  });

  it("migrate streamed carries over a line appended while it writes, as written", async () => {
    const fs = memoryFs();
    await writeText(fs, FILE, V1);
    const line = `{"type":"custom","customType":"x","id":"late0001","parentId":null,"timestamp":"2024-01-01T00:00:09.000Z"}\n`;
    let appended = false;
    const appending = wrap(fs, {
      writeAtomic: async (p, data, options) => {
        if (!appended && !p.endsWith(".bak")) {
          appended = true;
          await fs.append(FILE, new TextEncoder().encode(line));
        }
        return fs.writeAtomic(p, data, options);
      },
    });
    const whole = await run(V1, BASE);
    const result = await migrateFile(appending, FILE, { ...BASE, ...STREAMED });
    assert.equal(result.action, "migrated");
    assert.equal(result.carriedLines, 1);
    assert.equal(await readText(fs, FILE), whole.file + line);
    assert.equal(await readText(fs, `${FILE}.v1.bak`), V1);
  });
});
