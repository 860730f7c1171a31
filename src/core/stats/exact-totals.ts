/**
 * Usage totals whose sums do not depend on the order their rows were added in: `stats` adds the
 * rows a session gained after every other session when it goes on from a kept answer
 * (usage-base.ts), where a walk over every session adds them in attribution order. Plain sums of
 * float dollars differ in their last bits with the order, and rounded to a billionth of a dollar
 * that is now and then a different figure.
 *
 * Each number is cut into three whole numbers (limbs) at fixed binary places, the same cut
 * whatever it is added to, and each limb is summed apart: sums of whole numbers below 2^53 are
 * exact, so the limbs' sums, and the total made from them, are the same in any order. Costs keep
 * 2^-76 of a dollar (a cost of 1e-7 dollars or more loses nothing), tokens 2^-52 of a token.
 * Infinities and NaN are summed apart and win, as in a plain sum.
 * @module
 */
import { ROW_NUMBERS, type UsageState } from "../digest/usage-state.ts";
import type { UsageTotals } from "../info/usage-totals.ts";

/** Fields: input, output, cacheRead, cacheWrite and total tokens, then the same five costs. */
const FIELDS = 10;
const LIMBS = 3;
/** The scale of a field's first limb: a whole token; 2^-24 of a dollar. The next two are 2^26 finer each. */
const FIRST = [1, 1, 1, 1, 1, 2 ** 24, 2 ** 24, 2 ** 24, 2 ** 24, 2 ** 24];
const STEP = 2 ** 26;

/** What `ExactTotals.save` gives: the limbs' sums, then each field's infinities and NaN (null when none). */
export type SavedTotals = [limbs: number[], special: (number | null)[]];

/** One row's numbers cut into limbs, once for every total it is added to. */
export class RowLimbs {
  readonly limbs = new Float64Array(FIELDS * LIMBS);
  /** The row's numbers, where one of them is an infinity or NaN (else undefined). */
  special: Float64Array | undefined;

  /** Row `i` of a state, cut: good until the next `read`. */
  read(state: UsageState, i: number): this {
    const n = state.numbers;
    const at = i * ROW_NUMBERS;
    this.special = undefined;
    for (let k = 0; k < 4; k++) this.#cut(k, n[at + 4 + k]);
    this.#cut(4, n[at + 4] + n[at + 5] + n[at + 6] + n[at + 7]);
    for (let k = 0; k < 5; k++) this.#cut(5 + k, n[at + 8 + k]);
    return this;
  }

  #cut(field: number, x: number): void {
    const limbs = this.limbs;
    const at = field * LIMBS;
    if (!Number.isFinite(x)) {
      (this.special ??= new Float64Array(FIELDS))[field] = x;
      limbs[at] = limbs[at + 1] = limbs[at + 2] = 0;
      return;
    }
    // Each step: the whole part of the scaled number, and the rest (exact: both are doubles).
    let scaled = x * FIRST[field];
    const first = Math.round(scaled);
    limbs[at] = first;
    if (first === scaled) {
      limbs[at + 1] = limbs[at + 2] = 0;
      return;
    }
    scaled = (scaled - first) * STEP;
    const second = Math.round(scaled);
    limbs[at + 1] = second;
    limbs[at + 2] = Math.round((scaled - second) * STEP);
  }
}

const scratch = new RowLimbs();

/** Summed usage totals, order-free (see the module comment). */
export class ExactTotals {
  readonly #limbs = new Float64Array(FIELDS * LIMBS);
  #special: Float64Array | undefined;

  /** Adds row `i` of a state, as `addRowAt` adds it to plain totals. */
  addRow(state: UsageState, i: number): void {
    this.add(scratch.read(state, i));
  }

  /** Adds a row read into limbs. */
  add(row: RowLimbs): void {
    const limbs = this.#limbs;
    const from = row.limbs;
    for (let k = 0; k < FIELDS * LIMBS; k++) limbs[k] += from[k];
    if (row.special) {
      const special = (this.#special ??= new Float64Array(FIELDS));
      for (let k = 0; k < FIELDS; k++) special[k] += row.special[k];
    }
  }

  /** Adds every row `other` holds. */
  merge(other: ExactTotals): void {
    const limbs = this.#limbs;
    const from = other.#limbs;
    for (let k = 0; k < FIELDS * LIMBS; k++) limbs[k] += from[k];
    if (other.#special) {
      const special = (this.#special ??= new Float64Array(FIELDS));
      for (let k = 0; k < FIELDS; k++) special[k] += other.#special[k];
    }
  }

  /** The totals. */
  totals(): UsageTotals {
    const v = Array.from({ length: FIELDS }, (_, field) => this.#value(field));
    return { input: v[0], output: v[1], cacheRead: v[2], cacheWrite: v[3], totalTokens: v[4], cost: { input: v[5], output: v[6], cacheRead: v[7], cacheWrite: v[8], total: v[9] } };
  }

  #value(field: number): number {
    const special = this.#special?.[field] ?? 0;
    if (special !== 0 || Number.isNaN(special)) return special;
    const at = field * LIMBS;
    const limbs = this.#limbs;
    return (limbs[at] + (limbs[at + 1] + limbs[at + 2] / STEP) / STEP) / FIRST[field];
  }

  save(): SavedTotals {
    const special = this.#special ? [...this.#special].map((x) => (Number.isFinite(x) ? x : null)) : [];
    return [[...this.#limbs], special];
  }

  /** Totals back from `save()` (a saved infinity or NaN does not come back); throws `TypeError` for anything it cannot have made. */
  static from(saved: unknown): ExactTotals {
    const [limbs, special] = Array.isArray(saved) ? saved : [];
    const numbers = (xs: unknown, length: number) => Array.isArray(xs) && xs.length === length && xs.every((x) => typeof x === "number");
    if (!numbers(limbs, FIELDS * LIMBS) || !(numbers(special, 0) || numbers(special, FIELDS))) throw new TypeError("not saved totals");
    const totals = new ExactTotals();
    totals.#limbs.set(limbs);
    if (special.length > 0) totals.#special = Float64Array.from(special);
    return totals;
  }
}
