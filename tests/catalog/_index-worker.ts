/**
 * Child process for the concurrency test: indexes every session under AGENT_DIR into CACHE_DIR
 * with the given catalog mode, several times over, and exits 0 when every refresh succeeded.
 *
 *   <runtime> _index-worker.ts AGENT_DIR CACHE_DIR MODE
 */
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { filesDigest } from "../../src/core/digest/files-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { allSessionFilesIn } from "../../src/catalog/list-cached.ts";
import { type CatalogMode, openCatalog } from "../../src/catalog/open-catalog.ts";
import { detectFileSystem } from "../../src/io/mod.ts";

const [agentDir, cacheDir, mode] = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
const fs = detectFileSystem();
const scope = await allSessionFilesIn(fs, { agentDir });
const notes: string[] = [];
for (let round = 0; round < 3; round++) {
  const catalog = await openCatalog({ fs, cacheDir, mode: mode as CatalogMode, realDisk: true, note: (m) => notes.push(m) });
  const kinds = [listingDigest, usageDigest, filesDigest, ...(catalog.store?.supportsDocs ? [docsDigest] : [])];
  // Each round forgets a different half, so both processes keep writing at the same time.
  if (round > 0) await catalog.clear();
  await catalog.refresh(kinds, scope.files, { listedDirs: scope.dirs });
  catalog.close();
}
console.log(JSON.stringify({ notes }));
