/**
 * Everything a reader can ask a SQLite store, in the order it answers: what a test compares
 * before and after the store's file was rewritten (migrated, compacted).
 * @module
 */
import type { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import type { DigestKind } from "../../src/core/digest/digester.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";

// deno-lint-ignore no-explicit-any
export async function storeAnswers(store: SqliteCatalogStore, dir: string, kinds: readonly DigestKind<any, any>[]): Promise<unknown> {
  const sections = [];
  for (const kind of kinds) sections.push([...(await store.load(kind)).entries()]);
  const { bytes: _, location: __, ...description } = await store.describe();
  store.listRows.sync(listingDigest);
  return {
    sections,
    heads: (await store.loadHeads(usageDigest)).map(({ row: _, file: __, ...head }) => head),
    rows: [...store.listRows.ordered(listingDigest.version, [dir], "modified", true)],
    hits: store.supportsDocs ? await store.searchDocs('"question"', 0, 100) : [],
    description,
  };
}
