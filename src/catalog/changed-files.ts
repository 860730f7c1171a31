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

  /** Adds the file at `stem + name` (a whole path as `stem` with `name` ""), found with `stat`. */
  push(stem: string, name: string, stat: FileStat): void {
    this.#stems.push(stem);
    this.#names.push(name);
    this.#sizes.push(stat.size);
    this.#mtimes.push(stat.mtimeMs);
    this.#modes.push(stat.mode);
  }

  get length(): number {
    return this.#stems.length;
  }

  /** The path of the `i`th file. */
  path(i: number): string {
    return this.#stems[i] + this.#names[i];
  }

  /** The stat the `i`th file was found with (a file). */
  stat(i: number): FileStat {
    return { size: this.#sizes[i], mtimeMs: this.#mtimes[i], isFile: true, isDirectory: false, mode: this.#modes[i] };
  }
}
