/**
 * The models each session's assistant replies came from (the `provider/model` keys pi files
 * their cost under), read from the catalog's usage section, for `list --model` and the model
 * choices of the web app's sessions page.
 * @module
 */
import { usageDigest } from "../core/digest/usage-digest.ts";
import { recordState } from "../catalog/store.ts";
import type { QueryEnv } from "./env.ts";
import { sessionScope, withCatalog, withProgress } from "./scope.ts";

/** The key of usage that is not a model's (tool results, summaries). */
const NOT_A_MODEL = "Tools/summaries";

/** Session path → its models, in order of first use, for the sessions of a scope (`all`: every project). */
export async function sessionModels(env: QueryEnv, all: boolean): Promise<Map<string, string[]>> {
  const scope = await sessionScope(env, all);
  return withCatalog(env, async (catalog) => {
    const [options, done] = withProgress(env, "Reading models", { listedDirs: scope.dirs });
    const view = await catalog.refresh([usageDigest], scope.files, options).finally(done);
    const models = new Map<string, string[]>();
    for (const [path, record] of view.records(usageDigest)) {
      const { rejected, header, data } = recordState(record);
      if (rejected || header === null) continue;
      models.set(path, data.keys.filter((key) => key !== NOT_A_MODEL));
    }
    return models;
  });
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
