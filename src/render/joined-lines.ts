/**
 * `lines.join("\n").replace(/\n+$/, "\n")` as a stream: lines go in one at a time, text comes
 * out in pieces, and a run of newlines at the end becomes one. A document of any length is
 * written without ever being one string.
 * @module
 */

/**
 * @example
 * ```ts
 * const joined = new JoinedLines();
 * joined.add(["# Title", "", "text", ""]) + joined.end(); // "# Title\n\ntext\n"
 * ```
 */
export class JoinedLines {
  #first = true;
  /** Newlines written to the document but held back: they may be its trailing run. */
  #held = 0;

  /** The text these lines add (without the newlines that may end the document). */
  add(lines: Iterable<string>): string {
    let out = "";
    for (const line of lines) {
      if (!this.#first) this.#held++;
      this.#first = false;
      if (line === "") continue;
      // A line's own trailing newlines are held back too; the ones inside it go out.
      const trimmed = line.replace(/\n+$/, "");
      if (trimmed !== "") {
        out += "\n".repeat(this.#held) + trimmed;
        this.#held = 0;
      }
      this.#held += line.length - trimmed.length;
    }
    return out;
  }

  /** What ends the document: one newline when it ended with any. */
  end(): string {
    return this.#held > 0 ? "\n" : "";
  }
}
