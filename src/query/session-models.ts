/**
 * The models each session's assistant replies came from (the `provider/model` keys pi files
 * their cost under), read from the catalog's usage section, for `list --model` and the model
 * choices of the web app's sessions page.
 * @module
 */
import { usageDigest } from "../core/digest/usage-digest.ts";
import type { Catalog } from "../catalog/catalog.ts";
import { type CatalogRecord, recordState } from "../catalog/store.ts";
import type { UsageState } from "../core/digest/usage-state.ts";
import type { QueryEnv } from "./env.ts";
import { eachCurrentRecord, type SessionScope, sessionScope, withCatalog, withProgress } from "./scope.ts";

/** The key of usage that is not a model's (tool results, summaries). */
const NOT_A_MODEL = "Tools/summaries";

/** Session path → its models, in order of first use, for the sessions of a scope (`all`: every project). */
export async function sessionModels(env: QueryEnv, all: boolean): Promise<Map<string, string[]>> {
  return withCatalog(env, async (catalog) => {
    const sliced = await slicedModels(catalog, await sessionScope(env, all, catalog));
    if (sliced) return sliced;
    const scope = await sessionScope(env, all);
    const [options, done] = withProgress(env, "Reading models", { listedDirs: scope.dirs });
    const view = await catalog.refresh([usageDigest], scope.files, options).finally(done);
    const models = new Map<string, string[]>();
    for (const [path, record] of view.records(usageDigest)) addModels(models, path, record);
    return models;
  });
}

/** Puts the models of one usage record (none for a file that is not a session). */
function addModels(models: Map<string, string[]>, path: string, record: CatalogRecord): void {
  const { rejected, header, data } = recordState(record as CatalogRecord<UsageState>);
  if (rejected || header === null) return;
  models.set(path, data.keys.filter((key) => key !== NOT_A_MODEL));
}

/**
 * `sessionModels` from the stored usage records a slice at a time, each let go once its models
 * are taken, where the section is current for the scope by the catalog's `unchanged` (the quick
 * check where it can); else undefined. A view of every record held them all at once (259 MB for
 * `list --all --model` at 25,000 sessions).
 */
async function slicedModels(catalog: Catalog, scope: SessionScope): Promise<Map<string, string[]> | undefined> {
  const models = new Map<string, string[]>();
  return await eachCurrentRecord(catalog, [usageDigest], scope, (path, [record]) => addModels(models, path, record)) ? models : undefined;
}

/**
 * Whether a session with `models` matches a `--model` value: some model's `provider/model`
 * contains it, ignoring case (`sonnet`, `claude-sonnet-4`, `anthropic/claude-sonnet-4`).
 *
 * @example
 * ```ts
 * usedModel(["anthropic/claude-sonnet-4"], "Sonnet"); // true
 * ```
 */
export function usedModel(models: readonly string[], wanted: string): boolean {
  const needle = wanted.trim().toLowerCase();
  return models.some((model) => model.toLowerCase().includes(needle));
}
