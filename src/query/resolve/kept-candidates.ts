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

/** The parts of a `KeptCandidates`, as `CandidatePacker` makes them. */
interface Packing {
  ids: PackedPaths;
  folder: Uint32Array;
  folders: string[];
  names: PackedPaths;
  cwd: Int32Array;
  cwds: string[];
  mtimes: Float64Array;
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

  /** `list` packed, or the parts a `CandidatePacker` made. */
  constructor(list: readonly Candidate[] | Packing) {
    let packing: Packing;
    if (Array.isArray(list)) {
      const packer = new CandidatePacker(list.length);
      list.forEach((c, i) => packer.put(i, c));
      packing = packer.parts();
    } else packing = list as Packing;
    this.#ids = packing.ids;
    this.#folder = packing.folder;
    this.#folders = packing.folders;
    this.#names = packing.names;
    this.#cwd = packing.cwd;
    this.#cwds = packing.cwds;
    this.#mtimes = packing.mtimes;
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

/**
 * Packs candidates as they are read, each at its file's place among `files` (reads finish in
 * any order), holding no object per session: at 25,000 sessions, the list of candidates a server
 * packed at its start (an object, a header object and an id and cwd string per session) was
 * most of what that read held. Files never put are left out, the others keep their order.
 *
 * @example
 * ```ts
 * const packer = new CandidatePacker(2);
 * packer.put(1, { path: "/s/--a--/1.jsonl", header: { id: "0a1b", cwd: "/a" }, mtimeMs: 5 });
 * packer.pack().length; // 1
 * ```
 */
export class CandidatePacker {
  readonly #put: Uint8Array;
  readonly #folder: Uint32Array;
  readonly #cwd: Int32Array;
  readonly #mtimes: Float64Array;
  readonly #names: string[];
  readonly #ids: string[];
  readonly #folders = new Map<string, number>();
  readonly #cwds = new Map<string, number>();

  /** Room for `files` candidates. */
  constructor(files: number) {
    this.#put = new Uint8Array(files);
    this.#folder = new Uint32Array(files);
    this.#cwd = new Int32Array(files);
    this.#mtimes = new Float64Array(files);
    this.#names = new Array<string>(files).fill("");
    this.#ids = new Array<string>(files).fill("");
  }

  /** The candidate of the file at `place`. */
  put(place: number, c: Candidate): void {
    const cut = c.path.lastIndexOf("/") + 1;
    const folder = c.path.slice(0, cut);
    let f = this.#folders.get(folder);
    if (f === undefined) this.#folders.set(folder, (f = this.#folders.size));
    const cwd = c.header.cwd;
    let w = -1;
    if (typeof cwd === "string") {
      w = this.#cwds.get(cwd) ?? -1;
      if (w === -1) this.#cwds.set(cwd, (w = this.#cwds.size));
    }
    this.#put[place] = 1;
    this.#folder[place] = f;
    this.#cwd[place] = w;
    this.#mtimes[place] = c.mtimeMs;
    this.#names[place] = c.path.slice(cut);
    this.#ids[place] = String(c.header.id);
  }

  /** The candidates put, in their files' order. */
  pack(): KeptCandidates {
    return new KeptCandidates(this.parts());
  }

  /** `pack`'s parts. */
  parts(): Packing {
    const keep: number[] = [];
    for (let k = 0; k < this.#put.length; k++) if (this.#put[k]) keep.push(k);
    const all = keep.length === this.#put.length;
    const pick = <A extends Uint32Array | Int32Array | Float64Array>(array: A, make: (n: number) => A): A => {
      if (all) return array;
      const out = make(keep.length);
      keep.forEach((k, i) => (out[i] = array[k]));
      return out;
    };
    return {
      ids: new PackedPaths(all ? this.#ids : keep.map((k) => this.#ids[k])),
      folder: pick(this.#folder, (n) => new Uint32Array(n)),
      folders: [...this.#folders.keys()],
      names: new PackedPaths(all ? this.#names : keep.map((k) => this.#names[k])),
      cwd: pick(this.#cwd, (n) => new Int32Array(n)),
      cwds: [...this.#cwds.keys()],
      mtimes: pick(this.#mtimes, (n) => new Float64Array(n)),
    };
  }
}
