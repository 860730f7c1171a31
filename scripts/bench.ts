/**
 * Benchmarks (SPEC §7): our code and the reference (pi 1.6.0) side by side in one run.
 *
 *   npx tsx scripts/bench.ts [--only context[,list]] [--runs 5] [--no-verify] [--scale [DIR]]
 *
 * `--scale` adds the scale cases (issue 22), which are never run by default: `huge`, commands of
 * the binary on a 1.2 GB session chained from the 90 MB one (scripts/bench/chain-session.ts),
 * written under DIR (default `.cache/bench/scale`; it takes 1.2 GB of disk); `walkers`, the peak
 * RSS of every corpus walker at 2,400 sessions and on the scale corpus (DIR/agent, or
 * $PI_SESSION_SCALE_AGENT), and its slope per session; and `corpus`, the
 * binary's `list --all` (cold, warm, after 10 appended sessions), `search`, `stats --all` and
 * `pick --all` on the 25,000-session scale corpus beside pi's listAll, with the catalog's size and
 * each command's memory slope against the 2,400-session corpus. Its corpus is `--corpus AGENT_DIR`
 * (never written: the appended row works on a hard-linked copy), else generated under DIR/agent:
 *
 *   npx tsx scripts/bench.ts --only corpus --scale [DIR] --corpus /work/scale-data/agent --runs 3
 *
 * Every measurement is a fresh child process:
 *   /usr/bin/time -f '%e %M' node --import tsx scripts/bench/<case>.ts --impl <row> ARGS
 * The case script times only its work (imports and process start excluded) and prints it; peak RSS
 * is the whole process's (the `noop` row shows what node + tsx cost before any work). Rows of a case
 * run interleaved, round after round, after one untimed warm-up each (page cache, tsx cache); the
 * table shows medians. The warm-up run also computes a digest of each row's result, so a row that
 * computes something different from the reference is flagged.
 *
 * To add a case: write `scripts/bench/<name>.ts` (see `scripts/bench/_harness.ts`) and add an entry
 * to `cases` below. A row may instead give `command` (any argv, timed by wall clock), `runtime`
 * (`bun` runs the script under Bun instead of node + tsx), `beforeEach` (e.g. drop a cache for cold
 * runs), `vs` (the row its ratios are against) and a `target`. Whole commands are measured with
 * `scripts/bench/cli.ts`, which runs `run(argv, deps)` in-process.
 *
 * The table is printed as markdown and written to `.cache/bench/last.md`.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { cliBundleArgs } from "./build-npm.ts";
import { compileArgs } from "./compile.ts";
import { generateBigSession } from "./gen-big-session.ts";
import { appendedCorpus } from "./bench/appended-corpus.ts";
import { appendedLinks } from "./bench/appended-links.ts";
import { generateListCorpus } from "./bench/gen-list-corpus.ts";
import { chainSession } from "./bench/chain-session.ts";
import { oldSession } from "./bench/old-session.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(ROOT, ".cache", "bench");
const BUN = join(ROOT, "node_modules/.bin/bun");

// ---------------------------------------------------------------- the cases table

type Role = "reference" | "ours" | "baseline";

interface Target {
  /** Ours / `vs` time at most this. */
  time?: number;
  /** Ours / `vs` peak RSS at most this. */
  memory?: number;
  /** Median time at most this many ms (absolute, e.g. `--version` ≤ 25 ms). */
  timeMs?: number;
  /** Median peak RSS at most this many MB (absolute). */
  rssMb?: number;
  /** Where the target comes from, e.g. "SPEC §7". */
  source?: string;
}

interface Row {
  name: string;
  role: Role;
  /** Case script under scripts/bench/, run as `node --import tsx <script> --impl <impl> ...args`. */
  script?: string;
  /** `--impl` value; defaults to `name`. */
  impl?: string;
  args?: string[];
  /** Instead of a script: any argv, measured by wall clock (e.g. a compiled binary's `--version`). */
  command?: string[];
  /** What runs the script: node + tsx (the default), or bun, which runs TypeScript itself. */
  runtime?: "node" | "bun";
  env?: Record<string, string>;
  /** Runs before every (warm-up and timed) run of this row, e.g. to drop a cache for cold runs. */
  beforeEach?: () => void;
  /** The row to compute ratios against; defaults to the case's `reference` row. */
  vs?: string;
  target?: Target;
  /** Pass `--verify` on the warm-up run (the script must support it). Default true for scripts. */
  verify?: boolean;
  /** False when the row computes something else than the reference (another command, appended files): no result check. */
  compare?: boolean;
  note?: string;
}

interface BenchCase {
  title: string;
  /** Builds fixtures (cached) and returns the rows. */
  setup?: () => Row[] | Promise<Row[]>;
  /** Instead of rows: a case that measures in its own way (latency under load) and returns its markdown table. */
  report?: () => Promise<string>;
  /** Only with `--scale` (or `--only`): cases that need gigabytes of fixtures. */
  scale?: boolean;
}

/** Where `--scale` writes its fixtures. */
let scaleDir = join(CACHE, "scale");

/** A word of the corpus's session names: a search whose hits are few, among 208 MB of common words. */
const SEARCH_WORD = "flaky";

/** A word of nearly every session: a project's search of it finds its hits among 150,000 texts (25,000 sessions). */
const COMMON_WORD = "test";

/** The cwd of the first session of the first project folder (by name): a project's search names it with `--cwd`. */
function firstProjectCwd(agentDir: string): string {
  const sessions = join(agentDir, "sessions");
  const folder = join(sessions, readdirSync(sessions).sort()[0]!);
  const fd = openSync(join(folder, readdirSync(folder).filter((name) => name.endsWith(".jsonl")).sort()[0]!), "r");
  try {
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    return String(JSON.parse(head.subarray(0, n).toString("utf8").split("\n")[0]!).cwd);
  } finally {
    closeSync(fd);
  }
}

const cases: Record<string, BenchCase> = {
  context: {
    title: "context at the default leaf of a 90 MB, 11k-entry session",
    setup: () => {
      const big = generateBigSession(join(CACHE, "big-session.jsonl"), { verbose: true });
      // The reference may append a newline to a file that lacks one: it gets its own copy.
      const copy = join(CACHE, "big-session.ref-copy.jsonl");
      const copyStat = statSync(copy, { throwIfNoEntry: false });
      if (!copyStat || copyStat.size !== big.size || copyStat.mtimeMs < statSync(big.path).mtimeMs) copyFileSync(big.path, copy);
      info(`context: ${(big.size / 1e6).toFixed(1)} MB, ${big.entries} entries, ${big.mainPathEntries} on the leaf's path`);
      const script = "scripts/bench/context.ts";
      return [
        { name: "reference", impl: "ref", role: "reference", script, args: [copy], note: "pi 1.6.0: loadEntriesFromFile + migrateSessionEntries + buildSessionContext" },
        { name: "ours", role: "ours", script, args: [big.path], target: { time: 0.25, memory: 0.5, source: "SPEC §7" }, note: "readContextFromFile" },
        { name: "ours-full", role: "ours", script, args: [big.path], note: "readSession + buildSessionContext" },
        { name: "baseline", role: "baseline", script, args: [big.path], note: "read + JSON.parse every line, no tree" },
      ];
    },
  },
  list: {
    title: "list all sessions: 2,400 sessions (208 MB) in 40 projects",
    setup: () => {
      const corpus = generateListCorpus(join(CACHE, "agent"), { verbose: true });
      info(`list: ${corpus.sessions} sessions, ${corpus.projects} projects, ${(corpus.bytes / 1e6).toFixed(1)} MB`);
      const script = "scripts/bench/list.ts";
      // Each of our rows gets its own cache dir: cold runs start without one, warm runs keep it.
      const coldCache = join(CACHE, "list-cache-cold");
      const warmCache = join(CACHE, "list-cache-warm");
      const appendCache = join(CACHE, "list-cache-appended");
      const appended = appendedCorpus(corpus.agentDir, join(CACHE, "agent-appended"), join(CACHE, "list-cache-appended-primed"), (agentDir, cacheDir) => {
        execFileSync(process.execPath, ["--import", "tsx", script, "--impl", "ours", agentDir, "--cache-dir", cacheDir], { cwd: ROOT, stdio: "ignore" });
      });
      return [
        { name: "reference", impl: "ref", role: "reference", script, args: [corpus.agentDir], note: "pi 1.6.0: SessionManager.listAll() with PI_CODING_AGENT_DIR" },
        {
          name: "ours (cold)",
          impl: "ours",
          role: "ours",
          script,
          args: [corpus.agentDir, "--cache-dir", coldCache],
          beforeEach: () => rmSync(coldCache, { recursive: true, force: true }),
          target: { time: 0.5, source: "SPEC §7" },
          note: "listAllCached, catalog deleted before each run",
        },
        {
          name: "ours (warm)",
          impl: "ours-warm",
          role: "ours",
          script,
          args: [corpus.agentDir, "--cache-dir", warmCache],
          target: { time: 0.05, source: "SPEC §7" },
          note: "listAllCached, catalog primed by the warm-up run, files unchanged",
        },
        {
          name: "ours (10 appended)",
          impl: "ours",
          role: "ours",
          script,
          args: [appended.agentDir, "--cache-dir", appendCache],
          env: { PI_SESSION_CHECK: "full" },
          beforeEach: () => appended.reset(appendCache),
          compare: false,
          target: { time: 0.1, source: "issue 5" },
          note: "listAllCached on a copy of the corpus; before each run the catalog is as primed on it and a turn is appended to 10 sessions",
        },
      ];
    },
  },
  search: {
    title: `search all 2,400 sessions for "${SEARCH_WORD}" (50 newest hits, JSON), beside grep -rc over the same files`,
    setup: () => {
      const corpus = generateListCorpus(join(CACHE, "agent"));
      const script = "scripts/bench/cli.ts";
      const args = ["--", "search", SEARCH_WORD, "--all", "--json", "--agent-dir", corpus.agentDir];
      const env = (catalog: string, cache: string) => ({ PI_SESSION_CATALOG: catalog, XDG_CACHE_HOME: join(CACHE, cache) });
      return [
        { name: "grep -rc", role: "baseline", command: ["grep", "-rc", SEARCH_WORD, corpus.sessionsDir], note: "wall clock, whole process" },
        {
          name: "scan (catalog off)",
          impl: "cli",
          role: "ours",
          script,
          args,
          env: env("off", "search-cache-off"),
          vs: "grep -rc",
          target: { time: 3, source: "issue 5" },
          note: "node: `PI_SESSION_CATALOG=off`, every file read once and scanned, the listing only of the sessions with hits",
        },
        {
          name: "scan (file catalog, warm)",
          impl: "cli",
          role: "ours",
          script,
          args,
          env: env("file", "search-cache-file"),
          vs: "grep -rc",
          target: { time: 3, source: "issue 5" },
          note: "node 20 has no SQLite: the files scanned, then the listing of the sessions with hits from the catalog",
        },
        {
          name: "index (SQLite FTS, warm)",
          impl: "cli",
          role: "ours",
          runtime: "bun",
          script,
          args,
          env: env("sqlite", "search-cache-sqlite"),
          target: { timeMs: 50, source: "issue 5" },
          note: "bun: bun:sqlite with FTS5, the index built by the warm-up run, files unchanged",
        },
      ];
    },
  },
  stats: {
    title: "stats --all (by day, JSON) over the 2,400 sessions, beside the reference's listAll",
    setup: () => {
      const corpus = generateListCorpus(join(CACHE, "agent"));
      const script = "scripts/bench/cli.ts";
      const args = ["--", "stats", "--all", "--json", "--agent-dir", corpus.agentDir];
      /**
       * A row of ours: `cache` is its XDG_CACHE_HOME, deleted before each run when `cold`. The
       * memory target is judged where both programs run as shipped: under Bun (as the binary) and
       * in plain node (the npm rows below, beside pi's listAll in plain node). tsx adds the same
       * tens of megabytes to both sides, which pulls the ratio towards 1 while being part of
       * neither program, so the rows through it have no target.
       */
      const ours = (name: string, cache: string, cold: boolean, runtime: "bun" | undefined, note: string): Row => ({
        name,
        impl: "cli",
        role: "ours",
        runtime,
        script,
        args,
        env: { XDG_CACHE_HOME: join(CACHE, cache) },
        beforeEach: cold ? () => rmSync(join(CACHE, cache), { recursive: true, force: true }) : undefined,
        compare: false,
        target: runtime === "bun" ? { memory: 0.5, source: "issue 5" } : undefined,
        note,
      });
      // The npm package's CLI in node without tsx, beside the reference run the same way.
      const npmCli = nodeCli();
      const plainRef = "reference (plain node)";
      const npm = (name: string, cache: string, cold: boolean, note: string): Row => ({
        name,
        role: "ours",
        command: [process.execPath, npmCli, ...args.slice(1)],
        env: { XDG_CACHE_HOME: join(CACHE, cache) },
        beforeEach: cold ? () => rmSync(join(CACHE, cache), { recursive: true, force: true }) : undefined,
        vs: plainRef,
        compare: false,
        target: { memory: 0.5, source: "issue 5" },
        note,
      });
      return [
        { name: "reference", impl: "ref", role: "reference", script: "scripts/bench/list.ts", args: [corpus.agentDir], note: "pi 1.6.0: SessionManager.listAll(), the yardstick of issue 5" },
        ours("ours (cold)", "stats-cache-cold", true, undefined, "node + tsx: file catalog deleted before each run"),
        ours("ours (warm)", "stats-cache-warm", false, undefined, "node + tsx: file catalog primed by the warm-up run, files unchanged"),
        ours("ours (cold, bun)", "stats-cache-cold-bun", true, "bun", "bun, as the executable runs: SQLite catalog deleted before each run"),
        ours("ours (warm, bun)", "stats-cache-warm-bun", false, "bun", "bun: SQLite catalog primed by the warm-up run, files unchanged"),
        { name: plainRef, role: "baseline", command: [process.execPath, "scripts/bench/list-all-ref.mjs", corpus.agentDir], note: "the same listAll in node without tsx (wall clock, whole process), the yardstick of the next two rows" },
        npm("ours (cold, npm CLI)", "stats-cache-cold-npm", true, "node without tsx: the npm package's `pi-session.mjs stats --all --json`, file catalog deleted before each run"),
        npm("ours (warm, npm CLI)", "stats-cache-warm-npm", false, "the same, file catalog primed by the warm-up run"),
      ];
    },
  },
  otel: {
    title: "otel --all: the 2,400 sessions as OTLP/protobuf to a loopback receiver, beside stats --all cold",
    setup: async () => {
      const corpus = generateListCorpus(join(CACHE, "agent"));
      const port = 43180 + Math.floor(Math.random() * 1000);
      const sink = spawn(process.execPath, ["scripts/bench/otlp-sink.mjs", String(port)], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve) => sink.stdout!.once("data", () => resolve()));
      // Neither the child nor its pipe may keep the bench alive once the table is printed.
      sink.stdout!.destroy();
      sink.unref();
      process.on("exit", () => sink.kill("SIGTERM"));
      // The compiled binary, whole process, as a team's cron or CI runs it (until 2026-12-03 these
      // rows ran the sources in a Bun process, timing the command alone: 1.60× then, 1.46× so).
      const binary = compiledBinary();
      const otel = ["otel", "--all", "--agent-dir", corpus.agentDir, "--endpoint", `http://127.0.0.1:${port}`];
      /** A row of the binary with its own cache folder, deleted before each run when `cold`. */
      const row = (name: string, args: string[], cache: string, cold: boolean, extra: Partial<Row>): Row => ({
        name,
        role: "ours",
        command: [binary, ...args],
        env: { XDG_CACHE_HOME: join(CACHE, cache) },
        beforeEach: cold ? () => rmSync(join(CACHE, cache), { recursive: true, force: true }) : undefined,
        compare: false,
        ...extra,
      });
      return [
        row("stats --all (cold)", ["stats", "--all", "--json", "--agent-dir", corpus.agentDir], "otel-stats-cold", true, { role: "reference", note: "the yardstick: SQLite catalog deleted before each run (wall clock, whole process)" }),
        row("otel --all (cold)", otel, "otel-cold", true, { target: { time: 1.5, source: "issue 21" }, note: "catalog and sent-store deleted before each run: every session read, mapped, encoded, gzipped and sent (wall clock, whole process)" }),
        row("otel --all (nothing new)", otel, "otel-warm", false, { target: { timeMs: 200, source: "issue 21" }, note: "after the warm-up run sent everything: one stat per file, nothing read or sent (wall clock, whole process)" }),
      ];
    },
  },
  pick: {
    title: "the picker (pick --all) of the compiled binary over 2,400 sessions: time to the first frame with rows",
    setup: () => {
      const binary = compiledBinary();
      const corpus = generateListCorpus(join(CACHE, "agent"));
      const script = "scripts/bench/pick.ts";
      const coldCache = join(CACHE, "pick-cache-cold");
      return [
        {
          name: "warm",
          role: "ours",
          script,
          args: [binary, corpus.agentDir, "--cache-dir", join(CACHE, "pick-cache-warm")],
          target: { timeMs: 150, source: "issue 4" },
          note: "in a pseudo-terminal (util-linux script), wall clock from spawn to the first row on screen; catalog primed by the warm-up run",
        },
        {
          name: "cold",
          role: "ours",
          script,
          args: [binary, corpus.agentDir, "--cache-dir", coldCache],
          beforeEach: () => rmSync(coldCache, { recursive: true, force: true }),
          note: "catalog deleted before each run: rows appear while `Loading n/total` counts up (see the check)",
        },
      ];
    },
  },
  binary: {
    title: "the compiled binary: --version, and info on a 1 MB session (wall clock, whole process)",
    setup: () => {
      const binary = compiledBinary();
      const hello = join(CACHE, "hello-binary");
      writeFileSync(`${hello}.ts`, 'console.log("hello");\n');
      execFileSync(BUN, ["build", "--compile", "--minify", "--bytecode", `${hello}.ts`, "--outfile", hello], { cwd: ROOT, stdio: "ignore" });
      const small = generateBigSession(join(CACHE, "one-mb-session.jsonl"), { turns: 30, branches: 2, compactions: 1 });
      info(`binary: ${(small.size / 1e6).toFixed(2)} MB session, ${small.entries} entries`);
      return [
        { name: "floor", role: "baseline", command: [hello], note: "a Bun-compiled hello world: what any compiled binary costs here" },
        { name: "--version", role: "ours", command: [binary, "--version"], target: { timeMs: 25, source: "SPEC §7" } },
        { name: "info (1 MB)", role: "ours", command: [binary, "info", small.path], target: { timeMs: 40, source: "issue 3" } },
      ];
    },
  },
  "compat-append": {
    title: "pi-session/compat: 10,000 synchronous appendMessage calls to one new session",
    setup: () => {
      const script = "scripts/bench/compat.ts";
      return [
        { name: "reference", impl: "append-ref", role: "reference", script, args: [join(CACHE, "compat-append-ref")], note: "pi 1.6.0: SessionManager.create + appendMessage" },
        { name: "compat", impl: "append-ours", role: "ours", script, args: [join(CACHE, "compat-append-ours")], target: { time: 1.2, source: "issue 18" }, note: "pi-session/compat, each append under the file lock" },
      ];
    },
  },
  "compat-open": {
    title: "pi-session/compat: open the 90 MB session and build its context",
    setup: () => {
      const big = generateBigSession(join(CACHE, "big-session.jsonl"));
      // The reference may append a newline to a file that lacks one: it gets its own copy.
      const copy = join(CACHE, "big-session.ref-copy.jsonl");
      const copyStat = statSync(copy, { throwIfNoEntry: false });
      if (!copyStat || copyStat.size !== big.size || copyStat.mtimeMs < statSync(big.path).mtimeMs) copyFileSync(big.path, copy);
      const script = "scripts/bench/compat.ts";
      return [
        { name: "reference", impl: "open-ref", role: "reference", script, args: [copy], note: "pi 1.6.0: SessionManager.open + buildSessionContext" },
        { name: "compat", impl: "open-ours", role: "ours", script, args: [big.path], target: { time: 0.5, memory: 0.5, source: "issue 18" }, note: "pi-session/compat" },
      ];
    },
  },
  serve: {
    title: "`serve` (the binary) over the list corpus and the 90 MB session: /api/sessions latency warm and under 50 connections, peak RSS, the big session's first entries and a live append in Chromium",
    report: async () => (await import("./bench/serve.ts")).serveBench(),
  },
  export: {
    title: "HTML export (redaction on) of the 90 MB session, beside context on the same file",
    setup: () => {
      const big = generateBigSession(join(CACHE, "big-session.jsonl"));
      return [
        { name: "context", role: "reference", script: "scripts/bench/context.ts", impl: "ours", args: [big.path], note: "readContextFromFile, the yardstick" },
        { name: "export html", role: "ours", script: "scripts/bench/export.ts", impl: "html", args: [big.path], verify: false, target: { time: 2, source: "issue 6" } },
      ];
    },
  },
  huge: {
    title: "the binary on a 1.2 GB session (146k entries: chained copies of the 90 MB one), beside pi 1.6 opening it",
    scale: true,
    setup: () => {
      const big = generateBigSession(join(CACHE, "big-session.jsonl"), { verbose: true });
      mkdirSync(scaleDir, { recursive: true });
      const huge = join(scaleDir, "huge-session.jsonl");
      const marker = `${huge}.size`;
      const known = statSync(huge, { throwIfNoEntry: false });
      if (!known || !existsSync(marker) || readFileSync(marker, "utf8").trim() !== String(known.size)) {
        info(`huge: writing ${huge}`);
        const made = chainSession(big.path, huge, { targetBytes: 1.2e9, sessionId: "huge-session", cwd: "/home/dev/huge" });
        writeFileSync(marker, String(made.bytes));
      }
      const binary = compiledBinary();
      const forkOut = join(CACHE, "huge-forks");
      const emptyForkOut = () => {
        rmSync(forkOut, { recursive: true, force: true });
        mkdirSync(forkOut, { recursive: true });
      };
      // Writing rows, `show` and the exports but HTML have no time target in the issue, only its 300 MB.
      const memoryOnly = { memory: 0.12, source: "issue 22 (≤ 300 MB)" };
      // A version 1 copy of the huge session (made once, beside the bench's fixtures): each run
      // migrates a fresh copy of it, in a scratch folder emptied before each run.
      const v1 = join(CACHE, "huge-session-v1.jsonl");
      const v1Marker = `${v1}.source-size`;
      if (!existsSync(v1) || !existsSync(v1Marker) || readFileSync(v1Marker, "utf8").trim() !== String(statSync(huge).size)) {
        info(`huge: writing ${v1}`);
        oldSession(huge, v1, 1);
        writeFileSync(v1Marker, String(statSync(huge).size));
      }
      const migrateDir = join(CACHE, "huge-migrate");
      const migrated = join(migrateDir, "huge-session-v1.jsonl");
      const freshV1 = () => {
        rmSync(migrateDir, { recursive: true, force: true });
        mkdirSync(migrateDir, { recursive: true });
        copyFileSync(v1, migrated);
      };
      const hugeOut = join(tmpdir(), `pi-session-bench-huge-export-${process.pid}`);
      process.once("exit", () => rmSync(hugeOut, { force: true }));
      const ours = (name: string, ...args: string[]): Row => ({
        name,
        role: "ours",
        command: [binary, ...args, huge],
        compare: false,
        target: { time: 0.25, memory: 0.12, source: "issue 22 (≤ 0.25× pi's time, ≤ 300 MB)" },
        note: "wall clock, whole process",
      });
      return [
        // The file ends with a newline, so the reference has nothing to append to it.
        { name: "reference", impl: "ref", role: "reference", script: "scripts/bench/context.ts", args: [huge], verify: false, note: "pi 1.6.0 opening it: loadEntriesFromFile + migrateSessionEntries + buildSessionContext (work only)" },
        ours("context", "context"),
        ours("info", "info"),
        ours("check", "check"),
        // As a user types it (the default filter: every message, tool calls' lines), and pi's /tree's lightest view.
        { ...ours("tree"), command: ["sh", "-c", 'exec "$@" > /dev/null', "sh", binary, "tree", huge] },
        ours("tree --filter user-only", "tree", "--filter", "user-only"),
        // A v3 file: nothing to rewrite (the header is all it reads); the file is not written.
        { ...ours("migrate (v3: left as it is)", "migrate"), target: memoryOnly },
        // A v1 copy (scripts/bench/old-session.ts): read twice line by line, backed up, rewritten as v3.
        { ...ours("migrate (a v1 copy: rewritten as v3)"), command: [binary, "migrate", migrated], beforeEach: freshV1, target: memoryOnly },
        // The new sessions go to a scratch folder, emptied before each run.
        { ...ours("fork --at <last entry>", "fork", "--session-dir", forkOut, "--at", lastEntryId(huge)), beforeEach: emptyForkOut, target: memoryOnly },
        { ...ours("clone", "clone", "--session-dir", forkOut), beforeEach: emptyForkOut, target: memoryOnly },
        // stdout to /dev/null (61 MB of transcript), through an `exec` so the time is the binary's.
        { ...ours("show --leaf (the last entry)"), command: ["sh", "-c", 'exec "$@" > /dev/null', "sh", binary, "show", "--leaf", lastEntryId(huge), huge], target: memoryOnly },
        // One output file for every export row (--force), in the temp folder, removed at the end of the case.
        ours("export --format html", "export", "--format", "html", "--force", "-o", hugeOut),
        // The issue sets a time for the HTML export alone; the other formats have its 300 MB.
        { ...ours("export --format markdown", "export", "--format", "markdown", "--force", "-o", hugeOut), target: memoryOnly },
        { ...ours("export --format jsonl", "export", "--format", "jsonl", "--force", "-o", hugeOut), target: memoryOnly },
      ];
    },
  },
  walkers: {
    title: "the corpus walkers (check <dir>, files, index, search, pick --all, serve, mcp, otel --dry-run) of the binary: peak RSS at 2,400 and 25,000 sessions, and the slope per session",
    scale: true,
    report: async () => {
      const { measureWalkers, slopeTable } = await import("./bench/walkers.ts");
      const binary = compiledBinary();
      const small = generateListCorpus(join(CACHE, "agent"), { verbose: true });
      // The scale corpus (scripts/bench/gen-scale-corpus.ts): `<scale dir>/agent`, or where PI_SESSION_SCALE_AGENT says.
      const large = process.env.PI_SESSION_SCALE_AGENT ?? join(scaleDir, "agent");
      if (!existsSync(join(large, "sessions"))) throw new Error(`walkers: no scale corpus at ${large} (npx tsx scripts/bench/gen-scale-corpus.ts ${large}, or set PI_SESSION_SCALE_AGENT)`);
      const count = (agentDir: string) => Number(execFileSync("sh", ["-c", `find '${agentDir}/sessions' -mindepth 2 -maxdepth 2 -name '*.jsonl' | wc -l`], { encoding: "utf8" }).trim());
      const measured = [];
      for (const agentDir of [small.agentDir, large]) {
        info(`walkers: ${agentDir}`);
        measured.push({ sessions: count(agentDir), results: await measureWalkers(binary, agentDir, join(CACHE, `walkers-cache-${measured.length}`)) });
      }
      const [a, b] = measured;
      const seconds = b.results.map((r) => `${r.name} ${r.seconds.toFixed(1)} s`).join(", ");
      return [
        ...slopeTable(a, b),
        "",
        `Peak RSS of one run each (catalog warm: one \`index\` first; scripts/bench/walkers.ts says how servers and the picker are measured). Wall time at ${b.sessions.toLocaleString("en-US")} sessions: ${seconds}.`,
      ].join("\n");
    },
  },
  corpus: {
    title: "the binary's corpus commands on the 25,000-session scale corpus (issue 22), beside pi 1.6's listAll, and their memory slope from the 2,400-session corpus",
    scale: true,
    report: () => corpusReport(),
  },
  mcp: {
    title: "pi-session mcp (the compiled binary over stdio): start to initialize answered, search_sessions per call, get_context on the 90 MB session",
    setup: () => {
      const binary = compiledBinary();
      const corpus = generateListCorpus(join(CACHE, "agent"));
      const big = generateBigSession(join(CACHE, "big-session.jsonl"));
      // The server sees a folder holding only the big session (a hard link: no 90 MB copy).
      const bigDir = join(CACHE, "mcp-big");
      const linked = join(bigDir, "big-session.jsonl");
      if (statSync(linked, { throwIfNoEntry: false })?.ino !== statSync(big.path).ino) {
        rmSync(bigDir, { recursive: true, force: true });
        mkdirSync(bigDir, { recursive: true });
        linkSync(big.path, linked);
      }
      const bigId = JSON.parse(readFileSync(big.path, "utf8").slice(0, 4096).split("\n")[0]).id as string;
      const script = "scripts/bench/mcp.ts";
      const env = { XDG_CACHE_HOME: join(CACHE, "mcp-cache") };
      const server = ["--agent-dir", corpus.agentDir, "mcp", "--all"];
      return [
        { name: "initialize", impl: "init", role: "ours", script, args: ["--", binary, ...server], env, target: { timeMs: 100, source: "issue 20" }, note: "spawn of `pi-session mcp --all` to the initialize answer" },
        {
          name: "search_sessions",
          impl: "search",
          role: "ours",
          script,
          args: ["--query", SEARCH_WORD, "--calls", "10", "--", binary, ...server],
          env,
          target: { timeMs: 60, source: "issue 20" },
          note: `mean of 10 calls for "${SEARCH_WORD}" over the 2,400 sessions after one untimed call (SQLite catalog warm)`,
        },
        {
          name: "get_context (90 MB)",
          impl: "context",
          role: "ours",
          script,
          args: ["--session", bigId, "--calls", "3", "--", binary, "--session-dir", bigDir, "mcp", "--all"],
          env,
          target: { timeMs: 200, source: "issue 20" },
          note: "mean of 3 calls at the default leaf (the first page under the default budget) after one untimed call",
        },
        {
          name: "get_context (90 MB, first call)",
          impl: "context",
          role: "ours",
          script,
          args: ["--session", bigId, "--", binary, "--session-dir", bigDir, "mcp", "--all"],
          env,
          note: "the server's first call: its catalog opened and the query code loaded on the way",
        },
      ];
    },
  },
};

/** The scale corpus of `--only corpus`: `--corpus DIR`, else `<scale dir>/agent` (generated when missing). */
let corpusDir: string | undefined;
/** Runs and verification of this invocation, for cases that run their rows themselves. */
const settings = { runs: 5 };

/** The `.jsonl` files under `<agentDir>/sessions` and their bytes. */
function corpusSize(agentDir: string): { sessions: number; bytes: number } {
  const dir = join(agentDir, "sessions");
  let sessions = 0;
  let bytes = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!name.endsWith(".jsonl")) continue;
    sessions++;
    bytes += statSync(join(dir, name)).size;
  }
  return { sessions, bytes };
}

/** Bytes of every file in a folder (the catalog with its -wal/-shm), 0 when missing. */
function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).reduce((sum, name) => sum + (statSync(join(dir, name)).isFile() ? statSync(join(dir, name)).size : 0), 0);
}

/**
 * The rows of the corpus case over one corpus: pi's listAll, and the binary's `list --all` cold
 * and warm, `search`, `stats --all` and the picker warm, all warm rows on ONE catalog (as a user
 * has one), primed by their warm-up runs. With `targets`, the issue's targets (25,000 sessions).
 */
function corpusRows(agentDir: string, tag: string, targets: boolean, appended?: { agentDir: string; reset: (cache: string) => void }): Row[] {
  const binary = compiledBinary();
  const cache = (name: string) => join(scaleDir, `corpus-${tag}-${name}`);
  const warm = cache("warm");
  const cold = cache("cold");
  const scope = ["--all", "--agent-dir", agentDir];
  const source = "issue 22";
  const row = (name: string, argv: string[], target: Target | undefined, extra: Partial<Row> = {}): Row => ({
    name,
    role: "ours",
    command: [binary, ...argv],
    env: { XDG_CACHE_HOME: warm },
    compare: false,
    target: targets ? target : undefined,
    note: "wall clock, whole process",
    ...extra,
  });
  /**
   * A command warm three ways: the quick check (unchanged folders trusted: the run right after
   * another, untimed, one); the last full check ten minutes old, which the run puts off to a run
   * of its own in the background (src/cli/check-later.ts; timed: the answer, not that run, which
   * the next run waits out); and with `PI_SESSION_CHECK=full` (every folder listed, every file
   * stat'ed: what that background run does, and a run forced to).
   */
  const warmRows = (name: string, argv: string[], target: Target, what = ""): Row[] => [
    row(`${name} (warm, full check)`, argv, target, { env: { XDG_CACHE_HOME: warm, PI_SESSION_CHECK: "full" }, note: `${what}PI_SESSION_CHECK=full (wall clock, whole process)` }),
    row(`${name} (warm, full check put off)`, argv, target, {
      beforeEach: () => void spawnSync(BUN, ["scripts/bench/stale-full-checks.ts", join(warm, "pi-session", "catalog-v1.sqlite")], { cwd: ROOT, stdio: "ignore" }),
      note: `${what}last full check made 10 minutes old before each run (wall clock, whole process)`,
    }),
    row(`${name} (warm, quick check)`, argv, target, {
      beforeEach: () => void spawnSync(binary, argv, { env: { ...process.env, XDG_CACHE_HOME: warm }, stdio: "ignore" }),
      note: `${what}right after an untimed run (wall clock, whole process)`,
    }),
  ];
  const rows: Row[] = [
    { name: "reference", role: "reference", command: [process.execPath, "scripts/bench/list-all-ref.mjs", agentDir], note: "pi 1.6.0: SessionManager.listAll() in plain node (wall clock, whole process)" },
    row("list --all (cold)", ["list", ...scope], { time: 0.3, rssMb: 200, source }, {
      env: { XDG_CACHE_HOME: cold },
      beforeEach: () => rmSync(cold, { recursive: true, force: true }),
      note: "catalog deleted before each run (wall clock, whole process)",
    }),
    ...warmRows("list --all", ["list", ...scope], { timeMs: 300, source }),
  ];
  if (appended) {
    const appendCache = cache("appended");
    rows.push(row("list --all (10 appended)", ["list", "--all", "--agent-dir", appended.agentDir], { timeMs: 400, source }, {
      env: { XDG_CACHE_HOME: appendCache, PI_SESSION_CHECK: "full" },
      beforeEach: () => appended.reset(appendCache),
      note: "on a hard-linked copy: before each run the catalog is as primed on it (by this build) and a turn is appended to 10 sessions (real copies); PI_SESSION_CHECK=full",
    }));
    rows.push(row("stats --all (10 appended)", ["stats", "--all", "--json", "--agent-dir", appended.agentDir], { timeMs: 600, rssMb: 200, source }, {
      env: { XDG_CACHE_HOME: appendCache, PI_SESSION_CHECK: "full" },
      beforeEach: () => appended.reset(appendCache),
      note: "as the row above: the report primed on the copy goes on from its base with the 10 turns; PI_SESSION_CHECK=full",
    }));
  }
  rows.push(
    // As a user reads it: the text, whose short ids are unique among every session (`--json` prints full ids).
    ...warmRows(`search ${SEARCH_WORD}`, ["search", SEARCH_WORD, ...scope], { timeMs: 100, source }, "SQLite FTS5, index built by the warm-up run; text output; "),
    // The search a user types in a project: its sessions only, a word of nearly every one.
    ...warmRows(`search ${COMMON_WORD}, one project`, ["--cwd", firstProjectCwd(agentDir), "search", COMMON_WORD, "--agent-dir", agentDir], { timeMs: 100, source }, "the first project folder's sessions (--cwd), a word of nearly every session; text output; "),
    ...warmRows("stats --all", ["stats", ...scope, "--json"], { timeMs: 600, rssMb: 200, source }),
    {
      name: "pick --all (warm)",
      impl: "warm",
      role: "ours",
      script: "scripts/bench/pick.ts",
      args: [binary, agentDir, "--cache-dir", warm, "--rss-out", join(CACHE, `.pick-rss-${process.pid}.txt`)],
      compare: false,
      target: targets ? { timeMs: 100, source } : undefined,
      note: "first frame with rows, in a pseudo-terminal; peak RSS of the binary",
    },
  );
  return rows;
}

/**
 * `--only corpus --scale`: the rows of `corpusRows` on the scale corpus and on the 2,400-session
 * list corpus, then the catalog's size against the corpus's, and each command's peak RSS slope
 * in bytes per session between the two corpora.
 */
async function corpusReport(): Promise<string> {
  let agentDir = corpusDir;
  if (!agentDir) {
    agentDir = join(scaleDir, "agent");
    const { generateScaleCorpus, FULL } = await import("./bench/gen-scale-corpus.ts");
    info(`corpus: generating (resumable) ${agentDir}`);
    generateScaleCorpus(agentDir, FULL, info);
  }
  const big = corpusSize(agentDir);
  const small = generateListCorpus(join(CACHE, "agent"));
  const smallSize = corpusSize(small.agentDir);
  info(`corpus: ${big.sessions} sessions, ${(big.bytes / 1e9).toFixed(2)} GB; slope base: ${smallSize.sessions} sessions`);
  const binary = compiledBinary();
  const appended = appendedLinks(agentDir, join(scaleDir, "corpus-appended"), join(scaleDir, "corpus-appended-primed"), (copy, cacheDir) => {
    // Then a full check, as a user's catalog has had one within a minute of any use: it keeps the
    // fingerprints of the folders found current, which a cold build (every file read) has none of.
    // The usage report too, for `stats` after the appends (its report and what it was made from kept).
    for (const argv of [["list", "--all"], ["stats", "--all", "--json"]]) {
      for (const check of ["auto", "full"]) {
        execFileSync(binary, [...argv, "--agent-dir", copy], { env: { ...process.env, XDG_CACHE_HOME: cacheDir, PI_SESSION_CHECK: check }, stdio: "ignore" });
      }
    }
  });
  const bigResults = runRows("corpus", corpusRows(agentDir, "scale", true, appended), settings.runs, false);
  const smallResults = runRows("corpus-2400", corpusRows(small.agentDir, "list", false), settings.runs, false);
  const { markdown, notes } = table([...bigResults, ...smallResults], undefined);

  // The catalog as a user's grows to: besides the rows' sections (list, stats, search), those
  // made on demand: the picker's message texts (`list --search` makes them) and `files`' references
  // (a glob reads every session). Untimed, after the rows; kept from one bench run to the next.
  const warmCatalog = join(scaleDir, "corpus-scale-warm");
  for (const argv of [["list", "--search", "zzzz-none"], ["files", "**/*.md"]]) {
    spawnSync(binary, [...argv, "--all", "--agent-dir", agentDir], { env: { ...process.env, XDG_CACHE_HOME: warmCatalog }, stdio: "ignore" });
  }
  const catalogBytes = folderBytes(join(warmCatalog, "pi-session"));
  const size = [
    "| corpus | sessions | corpus bytes | catalog bytes (list, stats, search with its FTS index, the picker's message texts, files) | catalog / corpus | target |",
    "|---|---:|---:|---:|---:|---|",
    `| scale | ${fmtCount(big.sessions)} | ${fmtCount(big.bytes)} | ${fmtCount(catalogBytes)} | ${((100 * catalogBytes) / big.bytes).toFixed(1)}% | ≤ 10% (issue 22) |`,
  ];
  const slope = [
    `| command | peak RSS at ${fmtCount(smallSize.sessions)}, MB | peak RSS at ${fmtCount(big.sessions)}, MB | slope, bytes/session | target |`,
    "|---|---:|---:|---:|---|",
  ];
  for (const r of bigResults) {
    const s = smallResults.find((x) => x.row.name === r.row.name);
    if (!s || r.samples.length === 0 || s.samples.length === 0) continue;
    const rssBig = median(r.samples.map((x) => x.rssKb)) * 1024;
    const rssSmall = median(s.samples.map((x) => x.rssKb)) * 1024;
    const perSession = (rssBig - rssSmall) / (big.sessions - smallSize.sessions);
    const target = r.row.role === "ours" ? "≤ 2,048 (issue 22)" : "";
    slope.push(`| ${r.row.name} | ${fmtMb(rssSmall / 1024)} | ${fmtMb(rssBig / 1024)} | ${fmtCount(perSession)} | ${target} |`);
  }
  // On a shared machine the wall clock mostly measures the wait for a core: CPU time says what a run costs.
  const cpu = [
    `| command | CPU (user + system), median ms at ${fmtCount(smallSize.sessions)} | at ${fmtCount(big.sessions)} |`,
    "|---|---:|---:|",
    ...bigResults.filter((r) => r.samples.length > 0).map((r) => {
      const s = smallResults.find((x) => x.row.name === r.row.name);
      const ms = (rows: RowResult | undefined) => (rows && rows.samples.length ? fmtMs(1000 * median(rows.samples.map((x) => x.cpuS ?? NaN))) : "—");
      return `| ${r.row.name} | ${ms(s)} | ${ms(r)} |`;
    }),
  ];
  return [
    `### corpus: ${fmtCount(big.sessions)} sessions (${(big.bytes / 1e9).toFixed(2)} GB) at ${agentDir}, and the ${fmtCount(smallSize.sessions)}-session list corpus`,
    "",
    markdown,
    "",
    ...(notes.length ? ["Notes:", ...notes.map((n) => `- ${n}`), ""] : []),
    size.join("\n"),
    "",
    slope.join("\n"),
    "",
    cpu.join("\n"),
    "",
  ].join("\n");
}

let nodeCliBuilt = false;

/** The npm package's CLI (`pi-session.mjs`) of the current sources, bundled once per bench run. */
/** The id of the last entry of a session file (its last line), read from the file's end. */
function lastEntryId(path: string): string {
  const size = statSync(path).size;
  const fd = openSync(path, "r");
  try {
    for (let window = 64 * 1024; ; window *= 4) {
      const start = Math.max(0, size - window);
      const bytes = Buffer.alloc(size - start);
      readSync(fd, bytes, 0, bytes.length, start);
      const lines = bytes.toString("utf8").trimEnd().split("\n");
      // The first line of the window may be cut: it counts only when the window starts the file.
      if (lines.length > 1 || start === 0) return JSON.parse(lines[lines.length - 1]).id;
    }
  } finally {
    closeSync(fd);
  }
}

function nodeCli(): string {
  const dir = join(CACHE, "npm-cli");
  if (!nodeCliBuilt) {
    rmSync(dir, { recursive: true, force: true });
    execFileSync(BUN, cliBundleArgs(dir), { cwd: ROOT, stdio: "ignore" });
  }
  nodeCliBuilt = true;
  return join(dir, "pi-session.mjs");
}

let binaryBuilt = false;

/** The executable of the current sources, compiled once per bench run. */
function compiledBinary(): string {
  const binary = join(CACHE, "pi-session");
  if (!binaryBuilt) execFileSync(BUN, compileArgs(binary), { cwd: ROOT, stdio: "ignore" });
  binaryBuilt = true;
  return binary;
}

/** Always measured once per invocation: what a case process costs before doing anything. */
const FLOOR: Row = { name: "noop", impl: "noop", role: "baseline", script: "scripts/bench/noop.ts", note: "node + tsx start, no work" };

// ---------------------------------------------------------------- running

interface Sample {
  ms: number;
  rssKb: number;
  wallS: number;
  /** Minor page faults of the whole process: first touches of memory (see `pageFaultCost`). */
  faults: number;
  /** User + system CPU seconds of the whole process (and its children). */
  cpuS?: number;
}

interface RowResult {
  caseName: string;
  row: Row;
  samples: Sample[];
  check?: string;
  skipped?: string;
  error?: string;
}

function info(s: string): void {
  process.stderr.write(`${s}\n`);
}

/**
 * Waits (up to a minute) for the background full check a run of the binary may have started in
 * `cacheDir` (src/cli/check-later.ts) to end: a timed run must not share the cores with it.
 */
function waitForBackgroundCheck(cacheDir: string | undefined): void {
  if (!cacheDir) return;
  const mark = join(cacheDir, "pi-session", "full-check-running");
  const deadline = Date.now() + 60_000;
  while (existsSync(mark) && Date.now() < deadline) spawnSync("sleep", ["0.05"]);
}

function runOnce(row: Row, verify: boolean): { sample?: Sample; check?: string; skipped?: string; error?: string } {
  row.beforeEach?.();
  waitForBackgroundCheck(row.env?.XDG_CACHE_HOME);
  const timeOut = join(CACHE, `.time-${process.pid}.txt`);
  rmSync(timeOut, { force: true });
  const argv = row.command ?? [
    ...(row.runtime === "bun" ? [BUN] : [process.execPath, "--import", "tsx"]),
    row.script!,
    "--impl",
    row.impl ?? row.name,
    // Before the arguments, which may end with `-- ARGV` for the script to pass on.
    ...(verify ? ["--verify"] : []),
    ...(row.args ?? []),
  ];
  // A command row's output goes to a file, as `pi-session list --all > sessions.txt` writes it: read
  // through a pipe, spawnSync's own collecting of it was timed as the child's (`cat` of the 6.5 MB
  // a `list --all` of 25,000 sessions prints: 65-70 ms into spawnSync, 12 ms into /dev/null, 18 ms
  // through `| cat`), and the child waited on each 64 KB of pipe meanwhile. Its check needs the
  // first line only. A script row's output (its BENCH_RESULT line) comes through the pipe.
  const outPath = join(CACHE, `.out-${process.pid}.txt`);
  const outFd = row.command ? openSync(outPath, "w") : undefined;
  const started = performance.now();
  let child;
  try {
    child = spawnSync("/usr/bin/time", ["-f", "%e %M %R %U %S", "-o", timeOut, ...argv], {
      cwd: ROOT,
      env: { ...process.env, ...row.env },
      stdio: ["ignore", outFd ?? "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    if (outFd !== undefined) closeSync(outFd);
  }
  const wallMs = performance.now() - started;
  if (child.error) return { error: String(child.error) };
  const stdout = new TextDecoder().decode(outFd !== undefined ? fileStart(outPath, 4096) : child.stdout ?? new Uint8Array(0));
  const skipLine = stdout.split("\n").find((l) => l.startsWith("BENCH_SKIP "));
  if (skipLine) return { skipped: skipLine.slice("BENCH_SKIP ".length) };
  if (child.status !== 0) {
    const tail = new TextDecoder().decode(child.stderr ?? new Uint8Array(0)).trim().split("\n").slice(-3).join(" | ");
    return { error: `exit ${child.status}: ${tail}` };
  }
  let time: string;
  try {
    time = readFileSync(timeOut, "utf8").trim().split("\n").pop()!;
  } catch {
    return { error: "no output from /usr/bin/time" };
  }
  const [wallS, rssKb, faults, userS, sysS] = time.split(/\s+/).map(Number);
  const cpuS = userS + sysS;
  let ms = wallMs;
  let check: string | undefined;
  if (!row.command) {
    const line = stdout.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
    if (!line) return { error: `no BENCH_RESULT line in: ${stdout.slice(0, 200)}` };
    const result = JSON.parse(line.slice("BENCH_RESULT ".length));
    ms = result.ms;
    check = result.check;
    // A script that measures another process (the picker) gives that process's peak RSS.
    if (typeof result.rssKb === "number" && result.rssKb > 0) return { sample: { ms, rssKb: result.rssKb, wallS, faults, cpuS }, check };
  } else {
    check = stdout.trim().split("\n")[0]?.slice(0, 80);
  }
  return { sample: { ms, rssKb, wallS, faults, cpuS }, check };
}

/** The first `bytes` bytes of the file at `path` (fewer when it is shorter). */
function fileStart(path: string, bytes: number): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const out = new Uint8Array(bytes);
    return out.subarray(0, readSync(fd, out, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function runRows(caseName: string, rows: Row[], runs: number, verify: boolean): RowResult[] {
  const results: RowResult[] = rows.map((row) => ({ caseName, row, samples: [] }));
  for (const r of results) {
    info(`  ${caseName} / ${r.row.name}: warm-up`);
    const out = runOnce(r.row, verify && (r.row.verify ?? !r.row.command));
    if (out.skipped) r.skipped = out.skipped;
    else if (out.error) r.error = out.error;
    else r.check = out.check;
  }
  const live = results.filter((r) => !r.skipped && !r.error);
  for (let i = 0; i < runs; i++) {
    // Rotate the order each round so no row always runs right after the same neighbour.
    const order = live.map((_, k) => live[(k + i) % live.length]);
    for (const r of order) {
      if (r.error) continue;
      const out = runOnce(r.row, false);
      if (out.sample) r.samples.push(out.sample);
      else r.error = out.error ?? out.skipped;
    }
    info(`  ${caseName}: round ${i + 1}/${runs} ` + live.map((r) => `${r.row.name} ${r.samples.at(-1)?.ms.toFixed(0) ?? "?"} ms`).join(", "));
  }
  return results;
}

// ---------------------------------------------------------------- the table

const fmtMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const fmtMb = (kb: number) => (kb / 1024).toFixed(0);
const fmtRatio = (x: number) => `${x.toFixed(2)}×`;
const fmtCount = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * What a first touch of memory costs on this machine: 64 MB freshly allocated, written once
 * (each 4 KB page faults in) and once more (no faults), the difference per fault. Start-up and
 * allocation-heavy rows pay this for every page they touch, which is why the table counts faults.
 */
function pageFaultCost(): { microseconds: number; faults: number } {
  const bytes = Buffer.alloc(64 << 20);
  const before = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  bytes.fill(1);
  const t1 = performance.now();
  const faults = process.resourceUsage().minorPageFault - before;
  bytes.fill(2);
  const t2 = performance.now();
  return { microseconds: ((t1 - t0 - (t2 - t1)) * 1000) / Math.max(1, faults), faults };
}

function table(results: RowResult[], floor: RowResult | undefined): { markdown: string; notes: string[] } {
  const notes: string[] = [];
  const lines = [
    "| case | row | time, median ms (min–max) | peak RSS, median MB | page faults, median | time vs ref | memory vs ref | target | met |",
    "|---|---|---:|---:|---:|---:|---:|---|---|",
  ];
  const byCase = new Map<string, RowResult[]>();
  for (const r of results) byCase.set(r.caseName, [...(byCase.get(r.caseName) ?? []), r]);
  for (const [caseName, rows] of byCase) {
    const ref = rows.find((r) => r.row.role === "reference");
    for (const r of rows) {
      const label = `${r.row.name}${r.row.note ? ` (${r.row.note})` : ""}`;
      if (r.skipped || r.error || r.samples.length === 0) {
        const why = r.skipped ? `skipped: ${r.skipped}` : `failed: ${r.error ?? "no samples"}`;
        lines.push(`| ${caseName} | ${label} | — | — | — | — | — | ${targetText(r.row.target)} | ${why.replaceAll("|", "/")} |`);
        notes.push(`${caseName} / ${r.row.name}: ${why}`);
        continue;
      }
      const ms = median(r.samples.map((s) => s.ms));
      const rss = median(r.samples.map((s) => s.rssKb));
      const faults = median(r.samples.map((s) => s.faults));
      const lo = Math.min(...r.samples.map((s) => s.ms));
      const hi = Math.max(...r.samples.map((s) => s.ms));
      const vs = r.row.vs ? rows.find((x) => x.row.name === r.row.vs) : ref;
      let timeRatio = "—";
      let memRatio = "—";
      let met = "";
      if (vs && vs !== r && vs.samples.length > 0) {
        const t = ms / median(vs.samples.map((s) => s.ms));
        const m = rss / median(vs.samples.map((s) => s.rssKb));
        timeRatio = fmtRatio(t);
        memRatio = fmtRatio(m);
        const target = r.row.target;
        if (target) {
          const fails: string[] = [];
          if (target.time !== undefined && t > target.time) fails.push("time");
          if (target.memory !== undefined && m > target.memory) fails.push("memory");
          if (target.timeMs !== undefined && ms > target.timeMs) fails.push("time");
          if (target.rssMb !== undefined && rss / 1024 > target.rssMb) fails.push("memory");
          met = fails.length ? `**no** (${fails.join(", ")})` : "yes";
        }
      } else if (r.row.target?.timeMs !== undefined || r.row.target?.rssMb !== undefined) {
        const fails: string[] = [];
        if (r.row.target.timeMs !== undefined && ms > r.row.target.timeMs) fails.push("time");
        if (r.row.target.rssMb !== undefined && rss / 1024 > r.row.target.rssMb) fails.push("memory");
        met = fails.length ? `**no** (${fails.join(", ")})` : "yes";
      }
      if (ref && r !== ref && ref.check && r.check && r.row.role === "ours" && r.row.compare !== false && r.check !== ref.check) {
        notes.push(`${caseName} / ${r.row.name}: result differs from the reference (${r.check} vs ${ref.check})`);
        met += " (result differs!)";
      }
      lines.push(
        `| ${caseName} | ${label} | ${fmtMs(ms)} (${fmtMs(lo)}–${fmtMs(hi)}) | ${fmtMb(rss)} | ${fmtCount(faults)} | ${timeRatio} | ${memRatio} | ${targetText(r.row.target)} | ${met} |`,
      );
      if (r.check && r.row.role !== "baseline") notes.push(`${caseName} / ${r.row.name}: result ${r.check}`);
    }
  }
  if (floor && floor.samples.length) {
    const faults = fmtCount(median(floor.samples.map((s) => s.faults)));
    lines.push(`| (floor) | ${floor.row.name} (${floor.row.note}) | — | ${fmtMb(median(floor.samples.map((s) => s.rssKb)))} | ${faults} | | | | |`);
  }
  return { markdown: lines.join("\n"), notes };
}

function targetText(t: Target | undefined): string {
  if (!t) return "";
  const parts = [
    t.time !== undefined ? `time ≤ ${t.time}×` : "",
    t.memory !== undefined ? `memory ≤ ${t.memory}×` : "",
    t.timeMs !== undefined ? `≤ ${t.timeMs} ms` : "",
    t.rssMb !== undefined ? `≤ ${t.rssMb} MB` : "",
  ].filter(Boolean);
  return parts.join(", ");
}

// ---------------------------------------------------------------- main

async function main(argv: string[]): Promise<void> {
  let only: string[] | undefined;
  let runs = 5;
  let verify = true;
  let scale = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--only") only = argv[++i].split(",");
    else if (a === "--runs") runs = Number(argv[++i]);
    else if (a === "--no-verify") verify = false;
    else if (a === "--scale") {
      scale = true;
      if (argv[i + 1] && !argv[i + 1].startsWith("--")) scaleDir = argv[++i];
    } else if (a === "--corpus") corpusDir = argv[++i];
    else throw new Error(`unknown option ${a} (use --only CASE[,CASE], --runs N, --no-verify, --scale [DIR], --corpus AGENT_DIR)`);
  }
  settings.runs = runs;
  const names = only ?? Object.keys(cases).filter((n) => scale || !cases[n].scale);
  for (const n of names) if (!cases[n]) throw new Error(`unknown case ${n}; cases: ${Object.keys(cases).join(", ")}`);
  mkdirSync(CACHE, { recursive: true });

  const fault = pageFaultCost();
  const floor = runRows("floor", [FLOOR], runs, false)[0];
  const results: RowResult[] = [];
  const reports: string[] = [];
  for (const name of names) {
    info(`${name}: ${cases[name].title}`);
    const { setup, report } = cases[name];
    if (report) reports.push(await report());
    if (setup) results.push(...runRows(name, await setup(), runs, verify));
  }

  const { markdown, notes } = table(results, floor);
  const header = [
    `Benchmarks (\`npx tsx scripts/bench.ts${argv.length ? ` ${argv.join(" ")}` : ""}\`), ${new Date().toISOString().slice(0, 10)}:`,
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model?.trim() ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM; ` +
      `median of ${runs} runs, each in a fresh process; time is the work only (no process start or imports), ` +
      `peak RSS and page faults are of the whole process (node + tsx alone: see the floor row).`,
    `A first touch of a memory page (a minor page fault) costs ${fault.microseconds.toFixed(1)} µs here ` +
      `(${fault.faults.toLocaleString("en-US")} faults touching 64 MB).`,
    "",
  ].join("\n");
  const cases_ = names.map((n) => `- **${n}**: ${cases[n].title}`).join("\n");
  const text = `${header}${cases_}\n\n${results.length > 0 ? `${markdown}\n` : ""}${notes.length ? `\nNotes:\n${notes.map((n) => `- ${n}`).join("\n")}\n` : ""}${reports.map((r) => `\n${r}`).join("")}`;
  writeFileSync(join(CACHE, "last.md"), text);
  rmSync(join(CACHE, `.time-${process.pid}.txt`), { force: true });
  console.log(text);
  console.log(`(written to ${join(CACHE, "last.md")})`);
}

await main(process.argv.slice(2));
