import assert from "node:assert/strict";
import { test } from "node:test";
import { Redactor } from "../../src/core/redact/redactor.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { otlpEncoder } from "../../src/otel/otlp-encode.ts";
import { exportSession } from "../../src/otel/session-export.ts";
import { BIG_SESSION, ExportGarbage, PACE_FROM_RSS, PLANNED_FROM, READ_EVERY, SENT_EVERY, SESSIONS_EVERY } from "../../src/otel/export-garbage.ts";

/**
 * An `ExportGarbage` whose collections are written down: "young", "full" or "full, kept" (no
 * shrink); the process's resident memory is `resident.bytes` (by default `PACE_FROM_RSS`).
 */
function recorded(resident = { bytes: PACE_FROM_RSS }): { garbage: ExportGarbage; calls: string[] } {
  const calls: string[] = [];
  const collect = (young?: boolean, shrink?: boolean) => void calls.push(young ? "young" : shrink === false ? "full, kept" : "full");
  return { garbage: new ExportGarbage(collect, () => resident.bytes), calls };
}

test("ExportGarbage hints during a long read and collects in full once a big session is done with", () => {
  const { garbage, calls } = recorded();
  const chunk = 1024 * 1024;
  for (let read = 0; read < 2 * READ_EVERY; read += chunk) garbage.read(chunk);
  assert.deepEqual(calls, ["young", "young"]);
  garbage.session();
  assert.deepEqual(calls, ["young", "young", "full"]);
});

test("ExportGarbage collects in full, keeping the pages, once every SESSIONS_EVERY small sessions; a big one starts the count again", () => {
  const { garbage, calls } = recorded();
  for (let i = 0; i < 2 * SESSIONS_EVERY + 1; i++) {
    garbage.read(4096);
    garbage.session();
  }
  assert.deepEqual(calls, ["full, kept", "full, kept"]);
  for (let i = 0; i < SESSIONS_EVERY - 2; i++) garbage.session(4096);
  garbage.session(BIG_SESSION);
  for (let i = 0; i < SESSIONS_EVERY - 1; i++) garbage.session(4096);
  assert.deepEqual(calls, ["full, kept", "full, kept", "full"]);
});

test("ExportGarbage skips the collection every SESSIONS_EVERY sessions while the process holds less than PACE_FROM_RSS, not after a big session", () => {
  const resident = { bytes: PACE_FROM_RSS - 1 };
  const { garbage, calls } = recorded(resident);
  for (let i = 0; i < 2 * SESSIONS_EVERY; i++) garbage.session(4096);
  assert.deepEqual(calls, []);
  garbage.session(BIG_SESSION);
  assert.deepEqual(calls, ["full"]);
  resident.bytes = PACE_FROM_RSS;
  for (let i = 0; i < SESSIONS_EVERY; i++) garbage.session(4096);
  assert.deepEqual(calls, ["full", "full, kept"]);
});

test("ExportGarbage counts a file's bytes from the last session on, or takes the size it is given", () => {
  const { garbage, calls } = recorded();
  garbage.read(BIG_SESSION - 1);
  garbage.session();
  garbage.read(1);
  garbage.session();
  assert.deepEqual(calls, []);
  garbage.session(BIG_SESSION);
  assert.deepEqual(calls, ["full"]);
});

test("ExportGarbage hints once per SENT_EVERY bytes of requests handed out", () => {
  const { garbage, calls } = recorded();
  const body = 4 * 1024 * 1024;
  for (let sent = 0; sent < 3 * SENT_EVERY; sent += body) garbage.sent(body);
  assert.deepEqual(calls, ["young", "young", "young"]);
});

test("exportSession() tells its ExportGarbage every byte it reads and encodes the same chunks", async () => {
  const fs = new MemoryFileSystem({ chunkSize: 100 });
  const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" };
  const lines = [header];
  for (let i = 0; i < 20; i++) {
    lines.push({ type: "message", id: `e${i}`, parentId: i ? `e${i - 1}` : null, timestamp: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`, message: { role: "user", content: `hello ${i}` } } as never);
  }
  const text = lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
  await fs.writeAtomic("/s.jsonl", new TextEncoder().encode(text));
  let counted = 0;
  class Counting extends ExportGarbage {
    override read(bytes: number): void {
      counted += bytes;
      super.read(bytes);
    }
  }
  const options = { encode: otlpEncoder("http/json", { "service.name": "pi-session" }), redactor: new Redactor(), content: false };
  const plain = await exportSession(fs, { path: "/s.jsonl", walk: true }, options);
  const paced = await exportSession(fs, { path: "/s.jsonl", walk: true }, { ...options, garbage: new Counting(() => {}) });
  assert.equal(counted, new TextEncoder().encode(text).length);
  assert.ok(paced.spans > 0);
  assert.equal(paced.spans, plain.spans);
  assert.deepEqual(paced.chunks.map((c) => [...c.body]), plain.chunks.map((c) => [...c.body]));
});

test("ExportGarbage collects in full once the headers of PLANNED_FROM files or more are read and planned, not of fewer", () => {
  const { garbage, calls } = recorded({ bytes: 0 });
  garbage.planned(PLANNED_FROM - 1);
  assert.deepEqual(calls, []);
  garbage.planned(PLANNED_FROM);
  assert.deepEqual(calls, ["full"]);
});
