/**
 * Tests for the repair planner: one row per kind of damage (what the file becomes, what is set
 * aside, which changes are reported on which lines), and for every row: a second plan changes
 * nothing, the reader finds no line damage left, and every byte taken out is either padding
 * (NUL, CR, BOM, newline, space) or in the bytes set aside. Then the named tree fixes.
 * @module
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSession } from "../../../src/core/read/read-session.ts";
import { planRepair, type RepairOptions, type RepairPlan } from "../../../src/core/repair/mod.ts";
import { makeRand } from "../../../scripts/seeded-random.ts";
import { assistant, bytes, custom, header, jsonl, user } from "../_builders.ts";

type Planned = Extract<RepairPlan, { kind: "repair" }>;

const decode = (b: Uint8Array) => new TextDecoder().decode(b);
const line = (value: unknown) => JSON.stringify(value);

const H = line(header("s1"));
const U = line(user("u1", null, "hello {world}"));
const A = line(assistant("a1", "u1", 'a reply with } and { and "quotes"'));
const B = line(user("u2", "a1", "again"));

function plan(text: string | Uint8Array, options: RepairOptions = {}): Planned {
  const result = planRepair(typeof text === "string" ? bytes(text) : text, options);
  assert.equal(result.kind, "repair");
  return result as Planned;
}

/**
 * The bytes of `original` that are in neither `kept` nor `rejected`: each piece (a line of the
 * repaired file, a fragment set aside) is matched to the first place in the original where it
 * fits on bytes not yet matched.
 */
function unaccounted(original: Uint8Array, kept: Uint8Array, rejected: Uint8Array): number[] {
  const taken = new Uint8Array(original.length);
  const pieces = [...decode(kept).split("\n"), ...decode(rejected).split("\n")].filter((p) => p !== "").map(bytes);
  const fits = (piece: Uint8Array, at: number) => piece.every((b, i) => original[at + i] === b && taken[at + i] === 0);
  for (const piece of pieces) {
    let at = 0;
    while (at + piece.length <= original.length && !fits(piece, at)) at++;
    assert.ok(at + piece.length <= original.length, `piece not found in the original: ${decode(piece).slice(0, 60)}`);
    taken.fill(1, at, at + piece.length);
  }
  return [...original.keys()].filter((i) => taken[i] === 0).map((i) => original[i]);
}

/** Padding repair may drop: NUL, CR, LF, space, and the three bytes of a BOM. */
const PADDING = new Set([0x00, 0x0d, 0x0a, 0x20, 0xef, 0xbb, 0xbf]);

interface Row {
  name: string;
  input: string;
  output: string;
  rejected?: string;
  /** `kind@line` of each change. */
  changes: string[];
  /** `code@line` of lines left as they are. */
  left?: string[];
}

const ROWS: Row[] = [
  { name: "a clean file", input: `${H}\n${U}\n${A}\n`, output: `${H}\n${U}\n${A}\n`, changes: [] },
  { name: "two records glued on one line", input: `${H}\n${U}${A}\n${B}\n`, output: `${H}\n${U}\n${A}\n${B}\n`, changes: ["glued-records@2"] },
  { name: "three records glued, with spaces between", input: `${H}\n${U} ${A}  ${B}\n`, output: `${H}\n${U}\n${A}\n${B}\n`, changes: ["glued-records@2"] },
  { name: "the header glued to the first entry", input: `${H}${U}\n`, output: `${H}\n${U}\n`, changes: ["glued-records@1"] },
  {
    name: "a record cut off, then pi's next append glued onto it",
    input: `${H}\n${U}\n${A.slice(0, 40)}${B}\n`,
    output: `${H}\n${U}\n${B}\n`,
    rejected: `${A.slice(0, 40)}\n`,
    changes: ["cut-off-record@3"],
  },
  {
    name: "a cut-off record ending in a whole content block, then a record",
    input: `${H}\n${U}\n${A.slice(0, A.indexOf("}]") + 1)}${B}\n`,
    output: `${H}\n${U}\n${B}\n`,
    rejected: `${A.slice(0, A.indexOf("}]") + 1)}\n`,
    changes: ["cut-off-record@3"],
  },
  {
    name: "a cut-off record inside a string holding braces, then a record",
    input: `${H}\n${U}\n${A.slice(0, A.indexOf("and {") + 5)}${B}\n`,
    output: `${H}\n${U}\n${B}\n`,
    rejected: `${A.slice(0, A.indexOf("and {") + 5)}\n`,
    changes: ["cut-off-record@3"],
  },
  {
    name: "two crashes on one line: record, cut-off, record, cut-off",
    input: `${H}\n${U}${A.slice(0, 30)}${B}${A.slice(0, 20)}`,
    output: `${H}\n${U}\n${B}\n`,
    rejected: `${A.slice(0, 30)}\n${A.slice(0, 20)}\n`,
    changes: ["cut-off-record@2", "missing-newline@2"],
  },
  { name: "a torn last line", input: `${H}\n${U}\n${A.slice(0, 50)}`, output: `${H}\n${U}\n`, rejected: `${A.slice(0, 50)}\n`, changes: ["cut-off-record@3"] },
  {
    name: "a torn line pi later ended with a newline",
    input: `${H}\n${U}\n${A.slice(0, 50)}\n${B}\n`,
    output: `${H}\n${U}\n${B}\n`,
    rejected: `${A.slice(0, 50)}\n`,
    changes: ["cut-off-record@3"],
  },
  { name: "a whole last line without its newline", input: `${H}\n${U}`, output: `${H}\n${U}\n`, changes: ["missing-newline@2"] },
  { name: "glued records on a last line without newline", input: `${H}\n${U}${A}`, output: `${H}\n${U}\n${A}\n`, changes: ["glued-records@2", "missing-newline@2"] },
  { name: "a line of NUL padding at the end", input: `${H}\n${U}\n\0\0\0\0\0\0`, output: `${H}\n${U}\n`, changes: ["nul-padding@3"] },
  { name: "NUL padding, then pi's next append", input: `${H}\n${U}\n\0\0\0\0${A}\n`, output: `${H}\n${U}\n${A}\n`, changes: ["nul-padding@3"] },
  { name: "NUL padding after a whole record on its line", input: `${H}\n${U}\0\0\0\n${A}\n`, output: `${H}\n${U}\n${A}\n`, changes: ["nul-padding@2"] },
  {
    name: "a record cut off by NUL padding, then a record",
    input: `${H}\n${U}\n${A.slice(0, 33)}\0\0\0\0\0\0\0\0${B}\n`,
    output: `${H}\n${U}\n${B}\n`,
    rejected: `${A.slice(0, 33)}\n`,
    changes: ["nul-padding@3", "cut-off-record@3"],
  },
  { name: "a byte order mark", input: `\uFEFF${H}\n${U}\n`, output: `${H}\n${U}\n`, changes: ["bom@1"] },
  { name: "CRLF line endings", input: `${H}\r\n${U}\r\n${A}\r\n`, output: `${H}\n${U}\n${A}\n`, changes: ["crlf@1"] },
  {
    name: "BOM, CRLF and a glued pair together",
    input: `\uFEFF${H}\r\n${U}${A}\r\n`,
    output: `${H}\n${U}\n${A}\n`,
    changes: ["bom@1", "crlf@1", "glued-records@2"],
  },
  {
    name: "garbage that is no record is left as it is",
    input: `${H}\nnot json at all\n${U}\n`,
    output: `${H}\nnot json at all\n${U}\n`,
    changes: [],
    left: ["malformed-json@2"],
  },
  {
    name: "a balanced but invalid object is left as it is",
    input: `${H}\n{"type":"x",,}\n${U}\n`,
    output: `${H}\n{"type":"x",,}\n${U}\n`,
    changes: [],
    left: ["malformed-json@2"],
  },
  {
    name: "a line with a record and garbage after a NUL is left whole",
    input: `${H}\n${U}\0\0garbage\n`,
    output: `${H}\n${U}\0\0garbage\n`,
    changes: [],
    left: ["malformed-json@2"],
  },
  {
    name: "a torn last line of garbage is left, with the newline it lacked",
    input: `${H}\n${U}\ngarb`,
    output: `${H}\n${U}\ngarb\n`,
    changes: ["missing-newline@3"],
    left: ["torn-line@3"],
  },
  { name: "blank lines are kept", input: `${H}\n\n${U}\n   \n`, output: `${H}\n\n${U}\n   \n`, changes: [] },
];

describe("planRepair()", () => {
  for (const row of ROWS) {
    it(`planRepair() repairs ${row.name}`, () => {
      const original = bytes(row.input);
      const p = plan(original);
      assert.equal(decode(p.bytes), row.output);
      assert.equal(decode(p.rejected), row.rejected ?? "");
      assert.deepEqual(p.changes.map((c) => `${c.kind}@${c.line}`), row.changes);
      assert.deepEqual(p.left.map((l) => `${l.code}@${l.line}`), row.left ?? []);
      assert.ok(p.changes.every((c) => c.message.length > 0 && !c.message.endsWith(".")));
    });

    it(`planRepair() of ${row.name}: a second plan changes nothing, nothing lost`, () => {
      const original = bytes(row.input);
      const p = plan(original);
      const again = plan(p.bytes);
      assert.deepEqual(again.changes, []);
      assert.equal(decode(again.bytes), decode(p.bytes));
      assert.equal(again.rejected.length, 0);
      for (const b of unaccounted(original, p.bytes, p.rejected)) assert.ok(PADDING.has(b), `byte ${b} was dropped`);
      if (!row.left) {
        const damage = parseSession(p.bytes).issues.filter((i) => ["bom", "crlf", "malformed-json", "torn-line", "missing-newline"].includes(i.code));
        assert.deepEqual(damage, []);
      }
    });
  }

  it("planRepair() refuses a file that is not a session, even after line repairs", () => {
    assert.equal(planRepair(bytes("\0\0\0\0")).kind, "not-a-session");
    assert.equal(planRepair(bytes(`${U}\n${A}\n`)).kind, "not-a-session");
    assert.equal(planRepair(bytes(`${H.slice(0, 30)}`)).kind, "not-a-session");
  });

  it("planRepair() returns the very bytes it was given when there is nothing to do", () => {
    const original = bytes(`${H}\n${U}\n`);
    assert.equal(plan(original).bytes, original);
  });

  it("planRepair() recovers every whole record from randomly damaged files (seeded)", () => {
    const rand = makeRand(16, { start: 0, step: [1, 1] });
    for (let run = 0; run < 200; run++) {
      const entries = Array.from({ length: rand.int(2, 8) }, (_, i) => line(user(`e${run}-${i}`, i === 0 ? null : `e${run}-${i - 1}`, `text {${i}} "q" }{`)));
      const wanted: string[] = [];
      let text = `${H}\n`;
      for (const e of entries) {
        const damage = rand.int(0, 4);
        if (damage === 0) { // whole, with its newline
          text += `${e}\n`;
          wanted.push(e);
        } else if (damage === 1) { // glued to the next one (no newline)
          text += e;
          wanted.push(e);
        } else if (damage === 2) { // cut off: the next append glues on
          text += e.slice(0, rand.int(1, e.length - 2));
        } else if (damage === 3) { // NUL padding before it
          text += "\0".repeat(rand.int(1, 64)) + `${e}\n`;
          wanted.push(e);
        } else { // a CR before its newline
          text += `${e}\r\n`;
          wanted.push(e);
        }
      }
      const original = bytes(text);
      const p = plan(original);
      const lines = decode(p.bytes).split("\n").filter((l) => l !== "");
      assert.deepEqual(lines, [H, ...wanted], `run ${run}`);
      for (const b of unaccounted(original, p.bytes, p.rejected)) assert.ok(PADDING.has(b), `run ${run}: byte ${b} was dropped`);
      assert.deepEqual(plan(p.bytes).changes, [], `run ${run}: not idempotent`);
    }
  });
});

describe("planRepair() tree judgements and named fixes", () => {
  const orphan = jsonl(header("s1"), user("u1", null, "a"), user("u2", "gone", "b"), user("u3", "u2", "c"));

  it("planRepair() reports a missing parent with its fix, and changes nothing without it", () => {
    const p = plan(orphan);
    assert.deepEqual(p.changes, []);
    assert.deepEqual(p.judgements.map((j) => [j.code, j.line, j.entryId, j.fix]), [["missing-parent", 3, "u2", "--relink-orphans"]]);
  });

  it("planRepair() --relink-orphans gives an orphan the entry before it, changing only its parentId bytes", () => {
    const p = plan(orphan, { relinkOrphans: true });
    assert.equal(decode(p.bytes), orphan.replace('"parentId":"gone"', '"parentId":"u1"'));
    assert.deepEqual(p.changes.map((c) => [c.kind, c.line, c.entryId]), [["relink-orphan", 3, "u2"]]);
    assert.deepEqual(p.judgements, []);
    assert.deepEqual(plan(p.bytes, { relinkOrphans: true }).changes, []);
  });

  it("planRepair() --relink-orphans makes a first-entry orphan a root", () => {
    const text = jsonl(header("s1"), user("u1", "gone", "a"));
    const p = plan(text, { relinkOrphans: true });
    assert.equal(decode(p.bytes), text.replace('"parentId":"gone"', '"parentId":null'));
  });

  it("planRepair() --relink-orphans recovers the record glued after a cut-off one (pi's own case)", () => {
    const u1 = line(user("u1", null, "a"));
    const a1 = line(assistant("a1", "u1", "cut"));
    const u2 = line(user("u2", "a1", "next"));
    const p = plan(`${H}\n${u1}\n${a1.slice(0, 25)}${u2}\n`, { relinkOrphans: true });
    assert.equal(decode(p.bytes), `${H}\n${u1}\n${u2.replace('"parentId":"a1"', '"parentId":"u1"')}\n`);
    assert.deepEqual(p.changes.map((c) => `${c.kind}@${c.line}`), ["cut-off-record@3", "relink-orphan@3"]);
  });

  it("planRepair() --break-cycles re-parents the entry that closes a cycle", () => {
    const text = jsonl(header("s1"), user("a", "c", "x"), user("b", "a", "y"), user("c", "b", "z"), user("d", null, "w"));
    const p0 = plan(text);
    assert.deepEqual(p0.judgements.map((j) => [j.code, j.fix]), [["cycle", "--break-cycles"]]);
    const p = plan(text, { breakCycles: true });
    assert.equal(decode(p.bytes), text.replace('"id":"a","parentId":"c"', '"id":"a","parentId":null'));
    assert.deepEqual(p.changes.map((c) => [c.kind, c.line, c.entryId]), [["break-cycle", 2, "a"]]);
    assert.deepEqual(p.judgements, []);
  });

  it("planRepair() --break-cycles fixes an entry that is its own parent", () => {
    const text = jsonl(header("s1"), user("a", null, "x"), user("b", "b", "y"));
    const p = plan(text, { breakCycles: true });
    assert.equal(decode(p.bytes), text.replace('"id":"b","parentId":"b"', '"id":"b","parentId":"a"'));
    assert.deepEqual(p.judgements, []);
  });

  it("planRepair() reports duplicate ids with no named fix", () => {
    const p = plan(jsonl(header("s1"), user("a", null, "x"), custom("a", "a")));
    assert.ok(p.judgements.some((j) => j.code === "duplicate-id" && j.fix === null));
  });

  it("planRepair() reports judgements with the line of the file as it was", () => {
    const u1 = line(user("u1", null, "a"));
    const u2 = line(user("u2", "gone", "b"));
    const p = plan(`${H}\n${u1}${u1.replace('"u1"', '"u0"')}\n${u2}\n`);
    assert.deepEqual(p.judgements.map((j) => [j.code, j.line]), [["missing-parent", 3]]);
  });

  it("planRepair() does not re-parent in an old-format file (its ids are not on disk)", () => {
    const v2 = jsonl(header("s1", 2), user("u1", null, "a"), user("u2", "gone", "b"));
    const p = plan(v2, { relinkOrphans: true });
    assert.deepEqual(p.changes, []);
    assert.deepEqual(p.judgements.map((j) => [j.code, j.fix]), [["missing-parent", null]]);
  });
});
