/**
 * The "after 10 appended sessions" fixture for a corpus too big to copy (the 2.5 GB scale corpus):
 * a tree of hard links to the source's files, except the few files that get appended to, which
 * are real copies. The source is never written: `reset()` only writes those copies (and checks
 * first that each is not a link to the source). Before each run it restores the copies from the
 * source, puts the catalog back as it was primed on the unchanged tree, and appends the same new
 * turn to each, as `appendedCorpus` does for the 2,400-session corpus.
 */
import { cpSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AppendedCorpus, primedAppends, sessionFiles } from "./appended-corpus.ts";

/** Hard-links every file under `from` into `to` (same relative paths), with folders made as needed. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) linkTree(source, join(to, entry.name));
    else if (entry.isFile()) linkSync(source, join(to, entry.name));
  }
}

/**
 * Links `sourceAgentDir/sessions` into `copyAgentDir/sessions` (once: a `linked.json` marker
 * names the source), makes real copies of `count` session files spread over the sorted list,
 * and primes a catalog snapshot in `snapshotDir` with `prime(copyAgentDir, snapshotDir)`.
 */
export function appendedLinks(
  sourceAgentDir: string,
  copyAgentDir: string,
  snapshotDir: string,
  prime: (agentDir: string, cacheDir: string) => void,
  count = 10,
): AppendedCorpus {
  const marker = join(copyAgentDir, "linked.json");
  const key = JSON.stringify({ source: sourceAgentDir, files: sessionFiles(sourceAgentDir).length });
  if (!existsSync(marker) || statSync(marker).size !== key.length) {
    rmSync(copyAgentDir, { recursive: true, force: true });
    rmSync(snapshotDir, { recursive: true, force: true });
    linkTree(join(sourceAgentDir, "sessions"), join(copyAgentDir, "sessions"));
    writeFileSync(marker, key);
  }
  // Small sessions only: a giant would make the restore, not the listing, what is measured.
  const all = sessionFiles(copyAgentDir).filter((file) => statSync(file).size < 4e6);
  const files = Array.from({ length: count }, (_, i) => all[Math.floor(((i + 0.5) * all.length) / count)]);
  const originals = files.map((file) => join(sourceAgentDir, file.slice(copyAgentDir.length)));
  for (const [i, file] of files.entries()) {
    if (statSync(file).nlink === 1) continue;
    // Replace the link by a copy: written beside it and renamed over it, the source untouched.
    const aside = `${file}.copying`;
    cpSync(originals[i], aside, { preserveTimestamps: true });
    renameSync(aside, file);
  }
  const restore = () => {
    originals.forEach((original, i) => {
      if (statSync(files[i]).nlink !== 1) throw new Error(`${files[i]} is a link to the source: refusing to write it`);
      cpSync(original, files[i], { preserveTimestamps: true });
    });
  };
  return primedAppends(copyAgentDir, files, originals, restore, snapshotDir, prime);
}
