/**
 * When a long pass asks the engine for a garbage collection, counted in what it goes through:
 * items (files, stamps, sessions, slices) and amounts (characters decoded, rows, bytes). Each
 * pass that paces its collections says its own intervals, and why, beside its constants; this
 * only counts. The collections themselves are `collectGarbage` (collect-garbage.ts).
 * @module
 */
import { collectGarbage } from "./collect-garbage.ts";

/** Asks for a collection: `young` the cheap hint, else a full one (`collectGarbage`; tests count the calls). */
export type CollectFn = (young: boolean) => void;

/** How often a `GarbagePacer` collects; every interval is optional (absent: never on that count). */
export interface GarbagePace {
  /** Items between two collections: at the `everyItems`th item counted, twice that, … */
  everyItems?: number;
  /** Whether those are young collections (the cheap hint) rather than full ones. */
  itemsYoung?: boolean;
  /** A collection at the first item too, and then every `everyItems`th after it (items 1, every + 1, 2 every + 1, …; without `everyItems`, the first only). */
  atFirst?: boolean;
  /** Amount (characters, rows, bytes) between two collections, counted again from nothing after each. */
  everyAmount?: number;
  /** Whether those are young collections rather than full ones. */
  amountYoung?: boolean;
  /** At `end()`, a full collection when at least this many items were counted (absent: none). */
  endFrom?: number;
  /** How to collect (`collectGarbage(young)`: a full one gives pages back). */
  collect?: CollectFn;
}

/**
 * Counts what a pass goes through and collects at the intervals of its `GarbagePace`.
 *
 * @example
 * ```ts
 * const pacer = new GarbagePacer({ everyItems: 2048, itemsYoung: true, endFrom: 2048 });
 * // for (const row of rows) { pacer.item(); … }
 * pacer.end();
 * ```
 */
export class GarbagePacer {
  readonly #everyItems: number;
  readonly #itemsYoung: boolean;
  readonly #atFirst: boolean;
  readonly #everyAmount: number;
  readonly #amountYoung: boolean;
  readonly #endFrom: number;
  readonly #collect: CollectFn;
  #items = 0;
  #amount = 0;

  constructor(pace: GarbagePace) {
    this.#everyItems = pace.everyItems ?? Infinity;
    this.#itemsYoung = pace.itemsYoung === true;
    this.#atFirst = pace.atFirst === true;
    this.#everyAmount = pace.everyAmount ?? Infinity;
    this.#amountYoung = pace.amountYoung === true;
    this.#endFrom = pace.endFrom ?? Infinity;
    this.#collect = pace.collect ?? collectGarbage;
  }

  /**
   * Counts one item, and `amount` with it. When the amount is due, its collection is the only
   * one made for this item (a full one takes the young generation with it); else the item's, if due.
   */
  item(amount = 0): void {
    const counted = ++this.#items;
    if (this.#amountDue(amount)) return;
    if ((this.#atFirst ? counted - 1 : counted) % this.#everyItems === 0) this.#collect(this.#itemsYoung);
  }

  /** Counts `amount` within the current item (a file's characters as they are decoded). */
  add(amount: number): void {
    this.#amountDue(amount);
  }

  /** The pass is over: a full collection if it counted `endFrom` items or more. */
  end(): void {
    if (this.#items >= this.#endFrom) this.#collect(false);
  }

  /** Counts again from nothing (a new file; after a collection made by other means). */
  reset(): void {
    this.#items = 0;
    this.#amount = 0;
  }

  /** Adds `amount`, and collects (true) when another `everyAmount` has gone by. */
  #amountDue(amount: number): boolean {
    this.#amount += amount;
    if (this.#amount < this.#everyAmount) return false;
    this.#amount = 0;
    this.#collect(this.#amountYoung);
    return true;
  }
}
