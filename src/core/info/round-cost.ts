/**
 * Costs as JSON prints them: sums of float dollars carry noise (`0.14677500000000002`), so every
 * aggregated cost we print is rounded to a billionth of a dollar, far below any price step.
 * Raw entries (`show`, `context`) keep the numbers the file holds.
 * @module
 */
import type { UsageTotals } from "./usage-totals.ts";

/** Dollars rounded to 1e-9, e.g. `0.14677500000000002` to `0.146775`. */
export function roundCost(dollars: number): number {
  return Math.round(dollars * 1e9) / 1e9;
}

/**
 * A copy of `totals` with every cost rounded to 1e-9 of a dollar; token counts untouched.
 *
 * @example
 * ```ts
 * roundCosts(totals).cost.total; // 0.146775 where the sum was 0.14677500000000002
 * ```
 */
export function roundCosts<T extends UsageTotals>(totals: T): T {
  const c = totals.cost;
  return {
    ...totals,
    cost: { input: roundCost(c.input), output: roundCost(c.output), cacheRead: roundCost(c.cacheRead), cacheWrite: roundCost(c.cacheWrite), total: roundCost(c.total) },
  };
}
