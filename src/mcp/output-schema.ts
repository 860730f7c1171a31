/**
 * A tool's output schema: `{result, page}`, `result` being the `--json` shape of docs/schema and
 * `page` how the result was cut to the budget.
 * @module
 */

export const PAGE_SCHEMA = {
  type: "object",
  description: "How this result was cut to the character budget, and how to get the rest",
  properties: {
    offset: { type: "integer", description: "Index of the first item of this page in the whole list" },
    count: { type: "integer", description: "Items on this page" },
    total: { type: "integer", description: "Items in the whole list" },
    nextCursor: { type: ["string", "null"], description: "Pass as cursor (same arguments) for the next page; null on the last page" },
    cutStrings: { type: "integer", description: "Texts cut short (they end in …[cut: N more chars; …])" },
    redacted: { type: "integer", description: "Secrets masked (…[redacted KIND])" },
    note: { type: "string", description: "The same in words" },
  },
  required: ["nextCursor", "cutStrings", "redacted", "note"],
  additionalProperties: false,
};

/**
 * `result` and `page` as an output schema's properties, with the `$defs` of the result's schema
 * (referred to as `#/$defs/…`) moved to the output schema's root, where those references point.
 */
function hoistDefs(schema: Record<string, unknown>): { $defs?: Record<string, unknown>; properties: Record<string, unknown> } {
  const defs: Record<string, unknown> = {};
  const strip = (s: Record<string, unknown>): Record<string, unknown> => {
    const { $defs, ...rest } = s;
    Object.assign(defs, $defs ?? {});
    return Array.isArray(rest.anyOf) ? { ...rest, anyOf: rest.anyOf.map(strip) } : rest;
  };
  const result = strip(schema);
  return { ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}), properties: { result, page: PAGE_SCHEMA } };
}

/** The output schema of a tool whose result has the JSON Schema `result`. */
export function outputSchema(result: Record<string, unknown>): { type: "object"; [key: string]: unknown } {
  return { type: "object", ...hoistDefs(result), required: ["result", "page"], additionalProperties: false };
}
