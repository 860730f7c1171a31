/**
 * The files a check found changed, kept until each is read: a folder's stem and a name each (both
 * strings the listing holds anyway), and the numbers of its stat. A cold listing of 25,000
 * sessions held a path and a `FileStat` pair for every file through its whole read, about 250
 * bytes a session of its peak.
 * @module
 */
import type { FileStat } from "../io/file-system.ts";

export class ChangedFiles {
  #stems: string[] = [];
  #names: string[] = [];
  #sizes: number[] = [];
  #mtimes: number[] = [];
  #modes: number[] = [];
  /** False for a file known to have no stored record (a cold build: every file). */
  #recorded: boolean[] = [];

  /**
   * Adds the file at `stem + name` (a whole path as `stem` with `name` ""), found with `stat`;
   * `recorded` false when the check knows the store has no record of it (none to load).
   */
  push(stem: string, name: string, stat: FileStat, recorded = true): void {
    this.#stems.push(stem);
    this.#recorded.push(recorded);
    this.#names.push(name);
    this.#sizes.push(stat.size);
    this.#mtimes.push(stat.mtimeMs);
    this.#modes.push(stat.mode);
  }

  get length(): number {
    return this.#stems.length;
  }

  /** False when the `i`th file is known to have no stored record. */
  recorded(i: number): boolean {
    return this.#recorded[i];
  }

  /** The path of the `i`th file. */
  path(i: number): string {
    return this.#stems[i] + this.#names[i];
  }

  /**
   * The files' numbers in the order of their paths (as SQLite orders them, but for characters
   * beyond the Basic Multilingual Plane): rows stored in this order are appended to the tables
   * keyed by path, which a cold listing (newest name first) filled from the left, half full.
   */
  inPathOrder(): number[] {
    const stems = this.#stems;
    const names = this.#names;
    const order = Array.from({ length: stems.length }, (_, i) => i);
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return order.sort((a, b) => {
      const sa = stems[a];
      const sb = stems[b];
      if (sa === sb) return compare(names[a], names[b]);
      // Stems that differ before either ends order their paths; a path is made only where one
      // stem is a prefix of the other (made per comparison, paths were 26 MB of garbage at 25,000).
      if (!sa.startsWith(sb) && !sb.startsWith(sa)) return compare(sa, sb);
      return compare(sa + names[a], sb + names[b]);
    });
  }

  /** The stat the `i`th file was found with (a file). */
  stat(i: number): FileStat {
    return { size: this.#sizes[i], mtimeMs: this.#mtimes[i], isFile: true, isDirectory: false, mode: this.#modes[i] };
  }
}
