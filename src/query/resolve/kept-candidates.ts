/**
 * The candidates references are resolved against, read by position (`CandidateSet`), and the
 * packed form a server keeps for its life (`KeptCandidates`): at 25,000 sessions, an object per
 * session with its path, id and cwd strings held several hundred bytes each; packed, the ids and
 * file names are bytes in two blocks, folders and cwds one string per distinct value, the mtimes
 * a `Float64Array`.
 * @module
 */
import { PackedPaths } from "../../core/intern/packed-paths.ts";
import type { SessionHeader } from "../../core/format/types.ts";

/**
 * A session file and what resolving looks at in its header: the rest of the header (its time,
 * version, parent path) is not kept.
 */
export interface Candidate {
  path: string;
  header: Pick<SessionHeader, "id" | "cwd">;
  mtimeMs: number;
}

/** Candidates by position, whether held as objects or packed. */
export interface CandidateSet {
  readonly length: number;
  id(i: number): string;
  path(i: number): string;
  /** The header's cwd as read (not always a string in a damaged header). */
  cwd(i: number): unknown;
  mtimeMs(i: number): number;
}

/** `list` read by position. */
export function candidateSet(list: readonly Candidate[]): CandidateSet {
  return {
    length: list.length,
    id: (i) => list[i].header.id,
    path: (i) => list[i].path,
    cwd: (i) => list[i].header.cwd,
    mtimeMs: (i) => list[i].mtimeMs,
  };
}

/**
 * @example
 * ```ts
 * const kept = new KeptCandidates([{ path: "/s/--a--/1.jsonl", header: { id: "0a1b", cwd: "/a" }, mtimeMs: 5 }]);
 * kept.path(0); // "/s/--a--/1.jsonl"
 * ```
 */
export class KeptCandidates implements CandidateSet {
  readonly #ids: PackedPaths;
  /** Each path's folder (with its last separator), as an index into `#folders`. */
  readonly #folder: Uint32Array;
  readonly #folders: string[];
  /** Each path's file name. */
  readonly #names: PackedPaths;
  /** Each cwd as an index into `#cwds`; -1 when the header's cwd is not a string. */
  readonly #cwd: Int32Array;
  readonly #cwds: string[];
  readonly #mtimes: Float64Array;

  constructor(list: readonly Candidate[]) {
    const n = list.length;
    this.#folder = new Uint32Array(n);
    this.#cwd = new Int32Array(n);
    this.#mtimes = new Float64Array(n);
    const folders = new Map<string, number>();
    const cwds = new Map<string, number>();
    const names: string[] = [];
    list.forEach((c, i) => {
      const cut = c.path.lastIndexOf("/") + 1;
      const folder = c.path.slice(0, cut);
      let f = folders.get(folder);
      if (f === undefined) folders.set(folder, (f = folders.size));
      this.#folder[i] = f;
      names.push(c.path.slice(cut));
      const cwd = c.header.cwd;
      let w = -1;
      if (typeof cwd === "string") {
        w = cwds.get(cwd) ?? -1;
        if (w === -1) cwds.set(cwd, (w = cwds.size));
      }
      this.#cwd[i] = w;
      this.#mtimes[i] = c.mtimeMs;
    });
    this.#folders = [...folders.keys()];
    this.#cwds = [...cwds.keys()];
    this.#names = new PackedPaths(names);
    this.#ids = new PackedPaths(list.map((c) => String(c.header.id)));
  }

  get length(): number {
    return this.#mtimes.length;
  }

  id(i: number): string {
    return this.#ids.at(i);
  }

  path(i: number): string {
    return this.#folders[this.#folder[i]] + this.#names.at(i);
  }

  cwd(i: number): string | undefined {
    const w = this.#cwd[i];
    return w === -1 ? undefined : this.#cwds[w];
  }

  mtimeMs(i: number): number {
    return this.#mtimes[i];
  }
}
