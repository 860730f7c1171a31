/**
 * The JSON Schemas of the CLI outputs the HTTP API returns (docs/schema/), by name: imported as
 * they are, so the OpenAPI document's components are the CLI's documented shapes (the MCP tools
 * import them the same way).
 * @module
 */
import contextSchema from "../../../docs/schema/context.schema.json" with { type: "json" };
import contextLlmSchema from "../../../docs/schema/context-llm.schema.json" with { type: "json" };
import filesSchema from "../../../docs/schema/files.schema.json" with { type: "json" };
import infoSchema from "../../../docs/schema/info.schema.json" with { type: "json" };
import listSchema from "../../../docs/schema/list.schema.json" with { type: "json" };
import searchSchema from "../../../docs/schema/search.schema.json" with { type: "json" };
import showSchema from "../../../docs/schema/show.schema.json" with { type: "json" };
import statsSchema from "../../../docs/schema/stats.schema.json" with { type: "json" };
import treeSchema from "../../../docs/schema/tree.schema.json" with { type: "json" };

/** docs/schema/<name>.schema.json, as parsed. */
export const CLI_SCHEMAS: Record<string, Record<string, unknown>> = {
  list: listSchema,
  info: infoSchema,
  tree: treeSchema,
  show: showSchema,
  context: contextSchema,
  "context-llm": contextLlmSchema,
  search: searchSchema,
  stats: statsSchema,
  files: filesSchema,
};
