/**
 * A corpus of hostile session files, generated in memory: broken bytes, broken JSON, broken
 * trees, broken fields and sheer size. Each case builds its bytes on access, so only one
 * big case is alive at a time.
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assistant,
  bytes,
  compaction,
  concat,
  contextEdit,
  customMessage,
  entry,
  header,
  jsonl,
  label,
  message,
  T0,
  user,
} from "./_builders.ts";

export interface HostileCase {
  readonly name: string;
  /** Rebuilt on every access; keep the result in a local. */
  readonly bytes: Uint8Array;
}

const H = header("hostile");
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

function lazy(name: string, build: () => Uint8Array | string): HostileCase {
  return {
    name,
    get bytes() {
      const built = build();
      return typeof built === "string" ? bytes(built) : built;
    },
  };
}

/** Deterministic pseudo-random bytes without `\n` or `\r`, starting with an invalid UTF-8 byte. */
function garbage(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = 0x2545f491;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const b = state >>> 24;
    out[i] = b === 0x0a || b === 0x0d ? 0x20 : b;
  }
  out[0] = 0xff;
  return out;
}

/** The header, then `count` lines from `line(i)`; written as text directly, since these files are big. */
function bigFile(count: number, line: (i: number) => string): Uint8Array {
  const lines = [JSON.stringify(H)];
  for (let i = 0; i < count; i++) lines.push(line(i));
  lines.push("");
  return bytes(lines.join("\n"));
}

/** A compact message line: the chain and fan-out cases only need many of them. */
function messageLine(id: string, parent: string | null, role: string, text: string): string {
  const parentId = parent === null ? "null" : `"${parent}"`;
  return `{"type":"message","id":"${id}","parentId":${parentId},"timestamp":"${T0}",` +
    `"message":{"role":"${role}","content":"${text}","timestamp":1}}`;
}

/** A user message whose text is `size` bytes of "a", written straight into one buffer. */
function hugeLine(size: number): Uint8Array {
  const [before, after] = JSON.stringify(user("big", null, "|")).split("|");
  const head = bytes(jsonl(H) + before);
  const tail = bytes(after + "\n" + jsonl(assistant("a1", "big", "seen it")));
  const out = new Uint8Array(head.length + size + tail.length);
  out.set(head, 0);
  out.fill(0x61, head.length, head.length + size);
  out.set(tail, head.length + size);
  return out;
}

const U = user("u1", null, "hello");
const A = assistant("a1", "u1", "hi");

export function hostileCorpus(): HostileCase[] {
  return [
    lazy("empty", () => ""),
    lazy("whitespace-only", () => "  \n\t\n\n"),
    lazy("garbage-bytes", () => garbage(4096)),
    lazy("no-header", () => jsonl(U, A)),
    lazy("header-not-first", () => jsonl(U, H, A)),
    lazy("garbage-before-header", () => "{{{\n" + jsonl(H, U)),
    lazy("header-only", () => jsonl(H)),
    lazy("torn-tail", () => jsonl(H, U, A) + JSON.stringify(user("u2", "a1", "cut")).slice(0, 40)),
    lazy("no-final-newline", () => jsonl(H, U) + JSON.stringify(A)),
    lazy("bom", () => concat(BOM, jsonl(H, U, A))),
    lazy("crlf", () => jsonl(H, U, A).replaceAll("\n", "\r\n")),
    lazy("cr-only-line-endings", () => jsonl(H, U, A).replaceAll("\n", "\r") + "\n"),
    lazy("nul-and-control-bytes", () => concat(jsonl(H), '{"type":"message"\u0000}\n', jsonl(U))),
    lazy("invalid-utf8", () => {
      const [before, after] = JSON.stringify(user("u1", null, "|")).split("|");
      // A stray continuation byte, an overlong "/", a UTF-16 surrogate and a cut 3-byte sequence.
      return concat(jsonl(H), before, new Uint8Array([0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xe2, 0x82]), after, "\n", jsonl(A));
    }),
    lazy("many-blank-lines", () => "\n".repeat(200_000) + jsonl(H, U) + "\r\n".repeat(1000)),
    lazy("self-parent", () => jsonl(H, U, user("x", "x", "me"))),
    lazy("two-cycle", () => jsonl(H, user("a", "b", "a"), user("b", "a", "b"))),
    lazy("cycle-below-root", () => jsonl(H, U, user("x", "y", "x"), user("y", "x", "y"), user("z", "x", "z"))),
    lazy("missing-parent", () => jsonl(H, U, user("o", "gone", "orphan"), assistant("p", "o", "p"))),
    lazy("duplicate-ids", () => jsonl(H, U, A, assistant("a1", "u1", "again"))),
    lazy("duplicate-id-cycle", () => jsonl(H, user("a", null, "a"), assistant("b", "a", "b"), user("a", "b", "again"))),
    lazy("duplicate-header", () => jsonl(H, U, header("other"), A)),
    lazy("non-object-lines", () => jsonl(H, 5, "text", [1, 2], null, true, U)),
    lazy("missing-fields", () =>
      jsonl(H, {}, { type: "message" }, { type: "message", id: "m1", message: { role: "user", content: "x" } }, {
        type: "custom",
        id: 7,
        parentId: null,
      })
    ),
    lazy("unknown-types-and-roles", () =>
      jsonl(
        H,
        U,
        entry("telemetry", "t1", "u1", { data: { x: 1 } }),
        message("m1", "t1", { role: "narrator", content: "psst" }),
        message("m2", "m1", { role: "hookMessage", content: "v3 keeps it" }),
        message("m3", "m2", { content: "no role" }),
        entry(42 as unknown as string, "m4", "m3"),
      )
    ),
    lazy("null-or-missing-content", () =>
      jsonl(
        H,
        message("s1", null, { role: "system", content: null }),
        message("u1", "s1", { role: "user", content: null, timestamp: 1 }),
        message("a1", "u1", { role: "assistant", provider: "p", model: "m" }),
        message("t1", "a1", { role: "toolResult", content: null }),
        customMessage("c1", "t1", null),
        message("x1", "c1", { role: "custom", customType: "x", content: null }),
        message("b1", "x1", { role: "bashExecution", command: null, output: null }),
      )
    ),
    lazy("message-not-an-object", () =>
      jsonl(H, U, message("n1", "u1", null), message("n2", "n1", 5), message("n3", "n2", "text"), message("n4", "n3", [1]), entry("message", "n5", "n4"))
    ),
    lazy("malformed-compaction", () =>
      jsonl(
        H,
        U,
        compaction("c1", "u1", { summary: 42, tokensBefore: "many", firstKeptEntryId: "nowhere", retainedTail: "nope", systemMessage: "text" }),
        user("u2", "c1", "after c1"),
        compaction("c2", "u2", { summary: null, retainedTail: [null, 5, "s", [1], {}, { role: "user", content: null }], systemMessage: {} }),
        user("u3", "c2", "after c2"),
        compaction("c3", "u3", { summary: { nested: true }, firstKeptEntryId: 17 }),
        assistant("a3", "c3", "end"),
      )
    ),
    lazy("malformed-context-edits", () =>
      jsonl(
        H,
        U,
        A,
        compaction("c1", "a1", { retainedTail: [{ role: "user", content: "kept" }] }),
        contextEdit("e1", "c1", "u1", "not an object"),
        contextEdit("e2", "e1", "a1", { content: 5 }),
        contextEdit("e3", "e2", "c1", null),
        contextEdit("e4", "e3", "e4", {}),
        entry("context_edit", "e5", "e4", { replacement: { content: "no target" } }),
      )
    ),
    lazy("label-missing-target", () => jsonl(H, U, label("l1", "u1", "gone", "tag"), label("l2", "l1", "u1", "ok"), entry("label", "l3", "l2", { label: 5 }))),
    lazy("prototype-keys", () =>
      jsonl(
        H,
        user("__proto__", null, "p"),
        user("constructor", "__proto__", "c"),
        label("toString", "constructor", "__proto__", "__proto__"),
      ) +
      '{"type":"message","id":"hasOwnProperty","parentId":"toString","timestamp":"t","__proto__":{"polluted":1},' +
      '"message":{"role":"user","content":"x","__proto__":{"polluted":2}}}\n' +
      jsonl(entry("session_info", "valueOf", "hasOwnProperty", { name: "__proto__" }))
    ),
    lazy("absurd-numbers", () =>
      jsonl(
        H,
        user("u1", null, "x", { timestamp: "not a date" }),
        message("a1", "u1", { role: "assistant", content: [], provider: "p", model: "m", timestamp: -8.64e15, usage: { input: 1e308, output: -1, totalTokens: 1e308, cost: { total: 1e308 } } }, { timestamp: "-271821-04-20T00:00:00.000Z" }),
        compaction("c1", "a1", { tokensBefore: 1e308, firstKeptEntryId: "u1" }, { timestamp: 12345 }),
        message("b1", "c1", { role: "bashExecution", command: "x", output: "", exitCode: 1e308, cancelled: false, truncated: false, timestamp: -1 }, { timestamp: null }),
        user("u2", "b1", "y", { timestamp: "+275760-09-13T00:00:00.001Z" }),
      ) + '{"type":"message","id":"inf","parentId":"u2","timestamp":"2024-01-01T00:00:00Z","message":{"role":"user","content":"z","timestamp":1e999}}\n'
    ),
    lazy("version-not-a-number", () => jsonl(header("hostile", "3" as unknown as number), U, A)),
    lazy("version-from-the-future", () => jsonl(header("hostile", 99), U, A)),
    lazy("v1-bad-compaction-index", () =>
      jsonl(
        header("hostile", null),
        { type: "message", timestamp: "t", message: { role: "user", content: "x" } },
        { type: "compaction", timestamp: "t", summary: "s", tokensBefore: 1, firstKeptEntryIndex: 999 },
        { type: "compaction", timestamp: "t", summary: "s", tokensBefore: 1, firstKeptEntryIndex: "1" },
        { type: "compaction", timestamp: "t", summary: "s", tokensBefore: 1, firstKeptEntryIndex: 0 },
      )
    ),
    lazy("deep-nesting", () => {
      const depth = 100_000;
      const [before, after] = JSON.stringify(message("u1", null, { role: "user", content: "|", timestamp: 1 })).split('"|"');
      return jsonl(H) + before + "[".repeat(depth) + "]".repeat(depth) + after + "\n";
    }),
    lazy("chain-200k", () =>
      bigFile(200_000, (i) => messageLine(`e${i}`, i === 0 ? null : `e${i - 1}`, i % 2 === 0 ? "user" : "assistant", `m${i}`))
    ),
    lazy("children-50k", () =>
      bigFile(50_001, (i) => i === 0 ? messageLine("root", null, "user", "root") : messageLine(`c${i}`, "root", "assistant", `child ${i}`))
    ),
    lazy("line-64mb", () => hugeLine(64 * 1024 * 1024)),
  ];
}

const EXAMPLES = fileURLToPath(new URL("../../examples", import.meta.url));

/** Every hostile case, then every session file of the shipped examples (good and broken). */
export function* hostileAndExampleFiles(): Generator<{ name: string; bytes: Uint8Array }> {
  for (const c of hostileCorpus()) yield { name: c.name, bytes: c.bytes };
  for (const dir of ["agent", "broken"]) {
    const root = join(EXAMPLES, dir);
    for (const name of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (name.endsWith(".jsonl")) yield { name: `${dir}/${name}`, bytes: readFileSync(join(root, name)) };
    }
  }
}
