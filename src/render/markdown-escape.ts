/**
 * Message text is Markdown already (the model writes it), but a `<tag>` or `Vec<String>` in it
 * is raw HTML to a Markdown renderer, which drops it. This escapes the characters that start
 * HTML (`<`, and `&` where it would read as an entity) outside code, where they are literal.
 * @module
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** `<` and entity-like `&` in prose, outside inline code spans. */
function escapeInline(text: string): string {
  let out = "";
  let at = 0;
  while (at < text.length) {
    const tick = text.indexOf("`", at);
    const prose = tick < 0 ? text.slice(at) : text.slice(at, tick);
    out += prose.replace(/&(?=#?[0-9A-Za-z]+;)/g, "&amp;").replace(/</g, "&lt;");
    if (tick < 0) break;
    // A code span runs from a backtick string to the next one of the same length.
    const run = /^`+/.exec(text.slice(tick))![0];
    let close = -1;
    for (let from = tick + run.length; ;) {
      const next = text.indexOf(run, from);
      if (next < 0) break;
      const after = next + run.length;
      if (text[next - 1] !== "`" && text[after] !== "`") {
        close = next;
        break;
      }
      from = after;
      while (text[from] === "`") from++;
    }
    if (close < 0) {
      // No closing run: the backticks are literal text.
      out += run;
      at = tick + run.length;
    } else {
      out += text.slice(tick, close + run.length);
      at = close + run.length;
    }
  }
  return out;
}

/**
 * `text` (Markdown) with HTML-significant characters escaped outside fenced code blocks and
 * inline code, so that `Vec<String>` renders as written.
 *
 * @example
 * ```ts
 * escapeMarkdownHtml("Use `Vec<u8>` or Vec<String>"); // "Use `Vec<u8>` or Vec&lt;String>"
 * ```
 */
export function escapeMarkdownHtml(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let paragraph: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    // Code spans may cross lines within a paragraph, so a paragraph is escaped as one.
    if (paragraph.length > 0) out.push(escapeInline(paragraph.join("\n")));
    paragraph = [];
  };
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      out.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (marker && !(marker[0] === "`" && line.slice(line.indexOf(marker) + marker.length).includes("`"))) {
      flush();
      fence = marker;
      out.push(line);
      continue;
    }
    if (line.trim() === "") {
      flush();
      out.push(line);
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return out.join("\n");
}
