import assert from "node:assert/strict";
import { test } from "node:test";
import { type GarbagePace, GarbagePacer } from "../../src/io/garbage-pacer.ts";

/** A step of a pass: an item (with an amount), an amount within the current item, or the end. */
type Step = { item: number } | { add: number } | "end";

/** The collections a pacer asks for over `steps`, as "young@n" / "full@n" (n: items counted so far, "end" at the end). */
function collections(pace: Omit<GarbagePace, "collect">, steps: readonly Step[]): string[] {
  const asked: string[] = [];
  let at: number | "end" = 0;
  const pacer = new GarbagePacer({ ...pace, collect: (young) => asked.push(`${young ? "young" : "full"}@${at}`) });
  for (const step of steps) {
    if (step === "end") {
      at = "end";
      pacer.end();
    } else if ("item" in step) {
      at = (at as number) + 1;
      pacer.item(step.item);
    } else {
      pacer.add(step.add);
    }
  }
  return asked;
}

/** `n` items, each with `amount`. */
const items = (n: number, amount = 0): Step[] => Array.from({ length: n }, () => ({ item: amount }));

const cases: { name: string; pace: Omit<GarbagePace, "collect">; steps: Step[]; expected: string[] }[] = [
  { name: "nothing paced: no collection", pace: {}, steps: [...items(10, 5), "end"], expected: [] },
  { name: "young every 3rd item, from the 3rd", pace: { everyItems: 3, itemsYoung: true }, steps: items(10), expected: ["young@3", "young@6", "young@9"] },
  { name: "full every 3rd item", pace: { everyItems: 3 }, steps: items(7), expected: ["full@3", "full@6"] },
  { name: "at the first item, then every 3rd after it", pace: { everyItems: 3, atFirst: true }, steps: items(8), expected: ["full@1", "full@4", "full@7"] },
  { name: "at the first item only", pace: { atFirst: true, itemsYoung: true }, steps: items(5), expected: ["young@1"] },
  { name: "every item", pace: { everyItems: 1, itemsYoung: true }, steps: items(3), expected: ["young@1", "young@2", "young@3"] },
  { name: "end: full once the pass counted endFrom items", pace: { everyItems: 2, itemsYoung: true, endFrom: 4 }, steps: [...items(4), "end"], expected: ["young@2", "young@4", "full@end"] },
  { name: "end: none for a pass shorter than endFrom", pace: { everyItems: 2, itemsYoung: true, endFrom: 4 }, steps: [...items(3), "end"], expected: ["young@2"] },
  { name: "end from 0: always", pace: { endFrom: 0 }, steps: ["end"], expected: ["full@end"] },
  {
    name: "amount added within items: full once it reaches everyAmount, counted again from nothing (not the remainder)",
    pace: { everyAmount: 10 },
    steps: [{ item: 0 }, { add: 9 }, { add: 1 }, { add: 9 }, { item: 0 }, { add: 25 }, { add: 9 }],
    expected: ["full@1", "full@2"],
  },
  { name: "young amounts", pace: { everyAmount: 10, amountYoung: true }, steps: [{ add: 10 }, { add: 9 }], expected: ["young@0"] },
  {
    name: "an item whose amount is due: its full collection stands for the item's young one",
    pace: { everyItems: 1, itemsYoung: true, everyAmount: 10 },
    steps: [...items(2, 4), ...items(1, 4), ...items(2, 4), ...items(1, 4)],
    expected: ["young@1", "young@2", "full@3", "young@4", "young@5", "full@6"],
  },
  {
    name: "items and amounts paced apart (a scan's files and characters)",
    pace: { everyItems: 2, itemsYoung: true, everyAmount: 10 },
    steps: [{ item: 0 }, { add: 10 }, { item: 0 }, { add: 5 }],
    expected: ["full@1", "young@2"],
  },
];

for (const { name, pace, steps, expected } of cases) {
  test(`GarbagePacer: ${name}`, () => {
    assert.deepEqual(collections(pace, steps), expected);
  });
}

test("GarbagePacer.reset() counts items and amounts again from nothing", () => {
  const asked: string[] = [];
  const pacer = new GarbagePacer({ everyItems: 3, everyAmount: 10, amountYoung: true, collect: (young) => asked.push(young ? "young" : "full") });
  pacer.item();
  pacer.item();
  pacer.add(9);
  pacer.reset();
  pacer.item();
  pacer.item();
  pacer.add(9);
  assert.deepEqual(asked, []);
  pacer.item();
  pacer.add(1);
  assert.deepEqual(asked, ["full", "young"]);
});
