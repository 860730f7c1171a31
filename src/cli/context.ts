/**
 * What every command works with once the global flags are read: where sessions live,
 * the effective cwd, output mode and colours, and helpers to print data and notes.
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import type { SessionDirChoice, StorageEnv } from "../core/storage/layout.ts";
import type { FileSystem } from "../io/file-system.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import { versioned } from "../query/json-version.ts";
import { type CatalogUse, createQueryEnv, type QueryEnv, type QueryReport } from "../query/env.ts";
import { type Colors, createColors } from "../render/colors.ts";
import { printable } from "../render/control-chars.ts";
import { PrettyJsonArray } from "../render/pretty-json-stream.ts";
import { endCheckLater, startCheckLater } from "./check-later.ts";
import type { CliDeps } from "./deps.ts";
import { colorEnabled } from "./output/color-choice.ts";
import { startProgress } from "./progress.ts";
import { writeJsonArray } from "./output/json-array.ts";

/** The global flags of SPEC §4. */
export interface GlobalOptions {
  sessionDir?: string;
  agentDir?: string;
  cwd?: string;
  json?: boolean;
  /** `--color <when>` (always, never, auto) or `--no-color` (false). */
  color?: boolean | string;
  quiet?: boolean;
  /** False with `--no-pager`. */
  pager?: boolean;
}

export type { Colors };

/** The CLI's context: also the query env its commands run queries against (notes on stderr). */
export class CliContext implements QueryEnv {
  readonly deps: CliDeps;
  readonly fs: FileSystem;
  readonly options: GlobalOptions;
  /** The directory commands act for (`--cwd`, else the process cwd), absolute. */
  readonly cwd: string;
  readonly agentDir: string;
  readonly json: boolean;
  readonly quiet: boolean;
  /** Colours on stdout (`--color`, else FORCE_COLOR, else NO_COLOR, else whether it is a TTY). */
  readonly color: Colors;
  /** Colours on stderr. */
  readonly errColor: Colors;
  readonly report: QueryReport;
  readonly #env: QueryEnv;
  /** Whether a catalog of this run put off a full check (see check-later.ts). */
  #checkPutOff = false;

  /** `checksLater`: the command may put off its catalog's full check (`CommandSpec.checksLater`). */
  constructor(deps: CliDeps, options: GlobalOptions, use: { checksLater?: boolean } = {}) {
    this.deps = deps;
    this.fs = deps.fs;
    this.options = options;
    const { storage } = deps;
    this.report = {
      note: (line) => this.note(line),
      notice: (line) => this.notice(line),
      warn: (line) => this.warn(line),
      progress: (label) => startProgress(this, label),
    };
    const fullCheckLater = use.checksLater && deps.runAgainDetached ? () => void (this.#checkPutOff = true) : undefined;
    this.#env = createQueryEnv({ fs: deps.fs, storage, agentDir: options.agentDir, sessionDir: options.sessionDir, cwd: options.cwd, now: deps.now, report: this.report, fullCheckLater });
    this.cwd = this.#env.cwd;
    this.agentDir = this.#env.agentDir;
    this.json = options.json ?? false;
    this.quiet = options.quiet ?? false;
    const choice = (isTTY: boolean) => colorEnabled({ flag: options.color, env: storage.env, isTTY });
    this.color = createColors(choice(deps.stdoutIsTTY));
    this.errColor = createColors(choice(deps.stderrIsTTY));
  }

  /** Terminal width for tables; unlimited in pipes. */
  get width(): number {
    // A terminal that reports 0 columns (`script` does) has an unknown width: take 80.
    return this.deps.stdoutIsTTY ? this.deps.columns || 80 : Infinity;
  }

  out(line: string): void {
    this.deps.stdout(line + "\n");
  }

  /**
   * Prints a value as pretty JSON on stdout; an object gets `"schemaVersion"` first, the
   * version of the shapes in docs/JSON.md (arrays stay arrays: see there).
   */
  outJson(value: unknown): void {
    this.outRawJson(versioned(value));
  }

  /**
   * Prints a value as pretty JSON as it is, for shapes that are pi's own (`context`). An array
   * is written an element at a time, in pieces of about 64 KB, the same text as `JSON.stringify`
   * gives: a listing of 25,000 sessions is never one 16 MB string.
   */
  outRawJson(value: unknown): void {
    if (!Array.isArray(value) || value.length === 0) return this.deps.stdout(JSON.stringify(value, null, 2) + "\n");
    writeJsonArray(value, (text) => this.deps.stdout(text));
  }

  /**
   * Prints `{ ...value, [key]: items }` as `outJson` prints it (the same text), its last member
   * `key` an item at a time in pieces of about 64 KB: a 146k-row tree is never one string.
   * `itemJson` may give an item's text itself (`PrettyJsonArray.itemText`; undefined: made as usual).
   */
  outJsonItems<T>(value: Record<string, unknown>, key: string, items: Iterable<T>, itemJson?: (item: T, indent: string) => string | undefined): void {
    const json = new PrettyJsonArray(versioned({ ...value, [key]: [] }) as Record<string, unknown>, key);
    let piece = "";
    // Each item's text is garbage once written: collected young as the pieces go.
    const pacer = new GarbagePacer({ everyAmount: 4 * 1024 * 1024, amountYoung: true });
    for (const item of items) {
      const text = itemJson?.(item, json.indent);
      piece += text === undefined ? json.item(item) : json.itemText(text);
      if (piece.length >= 65536) {
        this.deps.stdout(piece);
        pacer.add(piece.length);
        piece = "";
      }
    }
    this.deps.stdout(piece + json.end() + "\n");
  }

  /** A note for people on stderr; silenced by `-q`. Control characters (from files) are made visible. */
  note(line: string): void {
    if (!this.quiet) this.deps.stderr(printable(line) + "\n");
  }

  /** A note that matters more (`note:` in yellow on a terminal); silenced by `-q` too. */
  notice(line: string): void {
    if (!this.quiet) this.deps.stderr(this.errColor.yellow("note: ") + printable(line) + "\n");
  }

  warn(line: string): void {
    this.deps.stderr(this.errColor.yellow("warning: ") + printable(line) + "\n");
  }

  get storage(): StorageEnv {
    return this.deps.storage;
  }

  now(): Date {
    return this.deps.now();
  }

  /** Merged global and project settings; problems are reported once as warnings. */
  settings(): Promise<Record<string, unknown>> {
    return this.#env.settings();
  }

  /** The session directory for the effective cwd, by SPEC precedence. */
  sessionDir(): Promise<SessionDirChoice> {
    return this.#env.sessionDir();
  }

  /**
   * After the command: starts the full check it put off, in the background; in that background
   * run, removes its mark (check-later.ts).
   */
  async afterCommand(): Promise<void> {
    await endCheckLater(this.deps);
    if (this.#checkPutOff) await startCheckLater(this.deps);
  }

  /** Runs `work` with a catalog opened for it, and closes it afterwards. */
  withCatalog<T>(work: (catalog: Catalog) => Promise<T>, options?: CatalogUse): Promise<T> {
    return this.#env.withCatalog(work, options);
  }
}
