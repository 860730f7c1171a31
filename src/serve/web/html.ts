/**
 * HTML built as strings with every interpolated value escaped unless marked `raw`: the server
 * renders pages with it, and the browser script renders live updates with the same views.
 * @module
 */

/** Markup that is already safe; `html` inserts it as it is. */
export class Raw {
  readonly html: string;
  constructor(html: string) {
    this.html = html;
  }
  toString(): string {
    return this.html;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

/** Marks trusted markup (our own templates' output) as safe. */
export function raw(markup: string): Raw {
  return new Raw(markup);
}

type Value = Raw | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false || value === true) return "";
  if (value instanceof Raw) return value.html;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/**
 * A template whose values are escaped (arrays joined, null/undefined/booleans dropped).
 *
 * @example
 * ```ts
 * html`<p title="${'"x"'}">${"<b>"}</p>`.html; // '<p title="&quot;x&quot;">&lt;b&gt;</p>'
 * ```
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Raw {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Raw(out);
}

/** A path segment or query value for an href. */
export function urlPart(text: string): string {
  return encodeURIComponent(text);
}
