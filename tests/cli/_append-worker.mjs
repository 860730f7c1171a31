/**
 * Child process for the migrate race test, acting as pi: appends lines to FILE with
 * `appendFileSync` (no lock), as an old pi writes them, while a migration of FILE runs. It appends
 * a few lines, says "ready", goes on appending until LOCK appears, while it is there, and a few
 * lines more after it is gone. Every loop is bounded. Prints how many lines it appended.
 *
 *   <runtime> _append-worker.mjs FILE LOCK PREFIX
 */
import { appendFileSync, existsSync, writeSync } from "node:fs";
import process from "node:process";

const args = globalThis.Deno?.args ?? process.argv.slice(2);
const [file, lock, prefix] = args;
let n = 0;
const append = () => {
  const line = { type: "message", timestamp: "2024-01-01T01:00:00.000Z", message: { role: "user", content: `${prefix}-${n}`, timestamp: n } };
  appendFileSync(file, JSON.stringify(line) + "\n");
  n++;
};
for (let i = 0; i < 20; i++) append();
writeSync(1, "ready\n");
for (let i = 0; i < 200_000 && !existsSync(lock); i++) append();
for (let i = 0; i < 200_000 && existsSync(lock); i++) append();
for (let i = 0; i < 50; i++) append();
writeSync(1, `${n}\n`);
