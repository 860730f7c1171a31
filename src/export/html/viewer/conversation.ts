/**
 * The conversation pane, rendered lazily: only a window of the branch's items is in the DOM,
 * grown by a batch when the reader scrolls near either end, and moved when a link jumps far.
 * A 10,000-entry branch opens as fast as a short one.
 * @module
 */
import { h } from "./dom.ts";

/** Items added at a time. */
const BATCH = 40;
/** Grow when the reader is this close (px) to an end. */
const MARGIN = 1500;

export class Conversation<T> {
  readonly #scroller: HTMLElement;
  readonly #list: HTMLElement;
  readonly #render: (item: T, index: number) => HTMLElement;
  readonly #top = h("div", { class: "window-edge" });
  readonly #bottom = h("div", { class: "window-edge" });
  #items: readonly T[] = [];
  #lo = 0;
  #hi = 0;
  #pending = false;

  constructor(scroller: HTMLElement, list: HTMLElement, render: (item: T, index: number) => HTMLElement) {
    this.#scroller = scroller;
    this.#list = list;
    this.#render = render;
    scroller.addEventListener("scroll", () => this.#schedule(), { passive: true });
  }

  /** How many items exist, and which are in the DOM. */
  get window(): { lo: number; hi: number; total: number } {
    return { lo: this.#lo, hi: this.#hi, total: this.#items.length };
  }

  /** Shows `items` with the window around `at` (default: the start). */
  show(items: readonly T[], at = 0): void {
    this.#items = items;
    this.#lo = Math.max(0, Math.min(at, items.length) - 5);
    this.#hi = this.#lo;
    this.#list.textContent = "";
    this.#list.append(this.#top, this.#bottom);
    this.#grow(Math.min(items.length, Math.max(at + BATCH, this.#lo + BATCH)));
    this.#schedule();
  }

  /** Makes sure item `index` is in the DOM, re-centering the window when it is far away. */
  ensure(index: number): void {
    if (index < 0 || index >= this.#items.length) return;
    if (index >= this.#lo && index < this.#hi) return;
    if (index >= this.#hi && index < this.#hi + BATCH * 3) this.#grow(index + BATCH);
    else if (index < this.#lo && index >= this.#lo - BATCH * 3) this.#growUp(index);
    else this.show(this.#items, index);
  }

  #grow(to: number): void {
    const end = Math.min(this.#items.length, to);
    const fragment = document.createDocumentFragment();
    for (; this.#hi < end; this.#hi++) fragment.appendChild(this.#render(this.#items[this.#hi], this.#hi));
    this.#list.insertBefore(fragment, this.#bottom);
    this.#edges();
  }

  #growUp(from: number): void {
    const start = Math.max(0, from);
    if (start >= this.#lo) return;
    const fragment = document.createDocumentFragment();
    for (let i = start; i < this.#lo; i++) fragment.appendChild(this.#render(this.#items[i], i));
    // Keep what the reader looks at in place while content is added above it.
    const before = this.#scroller.scrollHeight;
    this.#list.insertBefore(fragment, this.#top.nextSibling);
    this.#scroller.scrollTop += this.#scroller.scrollHeight - before;
    this.#lo = start;
    this.#edges();
  }

  #edges(): void {
    this.#top.textContent = this.#lo > 0 ? `${this.#lo.toLocaleString("en-US")} earlier entries above (scroll up to load)` : "";
    const rest = this.#items.length - this.#hi;
    this.#bottom.textContent = rest > 0 ? `${rest.toLocaleString("en-US")} more entries below` : "";
  }

  #schedule(): void {
    if (this.#pending) return;
    this.#pending = true;
    requestAnimationFrame(() => {
      this.#pending = false;
      const { scrollTop, clientHeight, scrollHeight } = this.#scroller;
      if (this.#hi < this.#items.length && scrollTop + clientHeight > scrollHeight - MARGIN) {
        this.#grow(this.#hi + BATCH);
        this.#schedule();
      } else if (this.#lo > 0 && scrollTop < MARGIN) {
        this.#growUp(this.#lo - BATCH);
        this.#schedule();
      }
    });
  }
}
