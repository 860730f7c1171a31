/**
 * Building DOM nodes without ever parsing data as HTML: strings become text nodes and
 * attributes are set one by one. The only HTML parsed is `renderMarkdown`'s sanitized output.
 * @module
 */

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  id?: string;
  title?: string;
  href?: string;
  role?: string;
  type?: string;
  /** `data-*` attributes. */
  data?: Record<string, string>;
  /** Extra attributes (never `on*` or `style`: callers pass fixed names). */
  attrs?: Record<string, string>;
}

/**
 * An element with props and children.
 *
 * @example
 * ```ts
 * // h("p", { class: "note" }, "<b>stays text</b>")
 * ```
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.id !== undefined) el.id = props.id;
  if (props.title !== undefined) el.title = props.title;
  if (props.href !== undefined) el.setAttribute("href", props.href);
  if (props.role !== undefined) el.setAttribute("role", props.role);
  if (props.type !== undefined) el.setAttribute("type", props.type);
  for (const [key, value] of Object.entries(props.data ?? {})) el.dataset[key] = value;
  for (const [key, value] of Object.entries(props.attrs ?? {})) el.setAttribute(key, value);
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** Sanitized HTML (from `renderMarkdown` or `highlightCode`) as nodes. */
export function trustedMarkup(html: string): DocumentFragment {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}

/** A `<details>` whose body is built the first time it opens: closed tool output costs nothing. */
export function lazyDetails(className: string, summary: Child[], build: () => Child[], open = false): HTMLDetailsElement {
  const details = h("details", { class: className }, h("summary", {}, ...summary));
  let built = false;
  const fill = () => {
    if (built) return;
    built = true;
    append(details, ...build());
  };
  details.addEventListener("toggle", () => {
    if (details.open) fill();
  });
  if (open) {
    fill();
    details.open = true;
  }
  return details;
}
