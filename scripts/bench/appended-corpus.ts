/**
 * A copy of the listing corpus in which a few sessions grow between runs, for the "list after
 * appending to 10 sessions" row (issue 5). The shared corpus is never written: the copy lives in
 * its own directory, and `reset()` puts the chosen files back as they were in the original and
 * the catalog back as it was primed on them, then appends the same new turn (a user message and
 * an assistant reply with usage) to each. So every run finds exactly those files appended.
 */
import { appendFileSync, closeSync, cpSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

export interface AppendedCorpus {
  agentDir: string;
  /** The session files (in the copy) that `reset` appends to. */
  files: string[];
  /** Restores the files and `cacheDir` (from the primed snapshot), then appends a turn to each file. */
  reset(cacheDir: string): void;
}

/** Every file under `dir`, at any depth. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Waits for `file`'s data to be on disk. */
function flush(file: string): void {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Every `.jsonl` under `<agentDir>/sessions`, sorted. */
export function sessionFiles(agentDir: string): string[] {
  const dir = join(agentDir, "sessions");
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).sort().map((f) => join(dir, f));
}

/** The id of the last entry of a session file: the parent of what is appended. */
export function lastEntryId(path: string): string {
  const lines = readFileSync(path, "utf8").trimEnd().split("\n");
  return JSON.parse(lines[lines.length - 1]).id;
}

/** Two entry lines continuing the session from `parentId`; ids made from `n`, times fixed. */
export function turnLines(parentId: string, n: number): string {
  const userId = `a11${n.toString(16).padStart(5, "0")}`;
  const replyId = `b22${n.toString(16).padStart(5, "0")}`;
  const at = Date.UTC(2026, 11, 1, 12, 0, n);
  const user = {
    type: "message",
    id: userId,
    parentId,
    timestamp: new Date(at).toISOString(),
    message: { role: "user", content: [{ type: "text", text: "one more question about the parser cache" }], timestamp: at },
  };
  const usage = { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, totalTokens: 1500, cost: { input: 0.0036, output: 0.0045, cacheRead: 0, cacheWrite: 0, total: 0.0081 } };
  const reply = {
    type: "message",
    id: replyId,
    parentId: userId,
    timestamp: new Date(at + 1000).toISOString(),
    message: {
      role: "assistant",
      content: [{ type: "text", text: "The cache keeps one digest per file and reads only the appended tail." }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage,
      stopReason: "stop",
      timestamp: at + 1000,
    },
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(reply)}\n`;
}

/**
 * Copies `sourceAgentDir` to `copyAgentDir` (once; again when the source's `corpus.json`
 * changes), picks `count` sessions spread over the sorted file list, and primes a catalog
 * snapshot in `snapshotDir` with `prime(copyAgentDir, snapshotDir)` on the unchanged copy.
 */
export function appendedCorpus(
  sourceAgentDir: string,
  copyAgentDir: string,
  snapshotDir: string,
  prime: (agentDir: string, cacheDir: string) => void,
  count = 10,
): AppendedCorpus {
  const marker = (dir: string) => (existsSync(join(dir, "corpus.json")) ? readFileSync(join(dir, "corpus.json"), "utf8") : "");
  if (marker(copyAgentDir) === "" || marker(copyAgentDir) !== marker(sourceAgentDir)) {
    rmSync(copyAgentDir, { recursive: true, force: true });
    rmSync(snapshotDir, { recursive: true, force: true });
    cpSync(sourceAgentDir, copyAgentDir, { recursive: true, preserveTimestamps: true });
  }
  const all = sessionFiles(copyAgentDir);
  const files = Array.from({ length: count }, (_, i) => all[Math.floor(((i + 0.5) * all.length) / count)]);
  const originals = files.map((file) => join(sourceAgentDir, file.slice(copyAgentDir.length)));
  const restore = () => originals.forEach((original, i) => cpSync(original, files[i], { preserveTimestamps: true }));
  return primedAppends(copyAgentDir, files, originals, restore, snapshotDir, prime);
}

/**
 * The fixture over a corpus copy whose `files` (copies of `originals`) get appended to: the
 * catalog snapshot primed on the unchanged copy (aside, then renamed, so an interrupted
 * priming is never taken for a snapshot), and `reset`, which restores the files, puts the
 * snapshot in place and appends the same new turn to each. An existing snapshot is primed
 * again, on top of itself, each time the fixture is made: one made by an older build may lack
 * what this build keeps (a snapshot of 18:32 had no listing rows, so every timed run made all
 * 25,000 of them: 500 ms measured that no user pays twice); a run that finds it current reads
 * no file. The timed run must then do a full check itself (`PI_SESSION_CHECK=full`): the
 * snapshot's last full check may be under a minute old.
 */
export function primedAppends(
  copyAgentDir: string,
  files: string[],
  originals: readonly string[],
  restore: () => void,
  snapshotDir: string,
  prime: (agentDir: string, cacheDir: string) => void,
): AppendedCorpus {
  const parents = originals.map(lastEntryId);
  const priming = `${snapshotDir}.priming`;
  rmSync(priming, { recursive: true, force: true });
  mkdirSync(dirname(priming), { recursive: true });
  if (existsSync(snapshotDir)) cpSync(snapshotDir, priming, { recursive: true, preserveTimestamps: true });
  restore();
  prime(copyAgentDir, priming);
  rmSync(snapshotDir, { recursive: true, force: true });
  renameSync(priming, snapshotDir);
  return {
    agentDir: copyAgentDir,
    files,
    reset(cacheDir: string) {
      restore();
      rmSync(cacheDir, { recursive: true, force: true });
      cpSync(snapshotDir, cacheDir, { recursive: true, preserveTimestamps: true });
      files.forEach((file, i) => appendFileSync(file, turnLines(parents[i], i)));
      // On disk before the run: else the run's first fsync (SQLite's, of its log's header) waits
      // for the file system to write out what was just copied and appended here (ext4 commits
      // a file's new blocks with the next journal commit): 20 ms a run that no user's catalog
      // pays, as theirs was not copied a moment before.
      for (const file of [...files, ...filesUnder(cacheDir)]) flush(file);
    },
  };
}
