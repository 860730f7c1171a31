/**
 * The OpenAPI 3.1 document of the JSON API. Response bodies are the CLI's `--json` shapes, so
 * their schemas are docs/schema/'s, each under its own `$id` (its `#/$defs/…` references
 * resolve inside it, as JSON Schema 2020-12 says).
 * @module
 */
import { CLI_SCHEMAS } from "./cli-schemas.ts";

const SCHEMA_BASE = "https://pi-session.invalid/schema/";

type Json = Record<string, unknown>;

function component(name: string): Json {
  const { $schema: _ignored, ...schema } = CLI_SCHEMAS[name];
  return { $id: `${SCHEMA_BASE}${name}.schema.json`, ...schema };
}

const ERROR_SCHEMA: Json = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: { code: { type: "string" }, message: { type: "string" }, hint: { type: "string" } },
      required: ["code", "message", "hint"],
      additionalProperties: false,
    },
  },
  required: ["error"],
  additionalProperties: false,
};

/** The entries query's page (no CLI command prints it: `show --json` gives one whole branch). */
const ENTRIES_SCHEMA: Json = {
  type: "object",
  properties: {
    schemaVersion: { type: "integer", enum: [1] },
    path: { type: "string" },
    id: { type: "string", description: "The session id" },
    leafId: { type: ["string", "null"], description: "The active leaf (the last entry)" },
    entryCount: { type: "integer", description: "Entries in the whole file" },
    entries: { type: "array", items: { type: "object" }, description: "This page's entries as stored, in file order" },
    nextAfter: { type: ["string", "null"], description: "Pass as after= for the next page; null on the last" },
  },
  required: ["schemaVersion", "path", "id", "leafId", "entryCount", "entries", "nextAfter"],
  additionalProperties: false,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const query = (name: string, description: string, schema: Json = { type: "string" }, required = false) => ({ name, in: "query", required, description, schema });
const REF = { name: "ref", in: "path", required: true, description: "A session id or a unique prefix of one", schema: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" } };
const LEAF = query("leaf", "Entry id, unique prefix or label:NAME ending the branch (default: the last entry)");

function errors(...statuses: number[]): Json {
  const text: Record<number, string> = {
    400: "Bad parameter (the CLI's exit code 2)",
    401: "Missing or wrong token",
    404: "No such session or entry",
    422: "The session file cannot be read (the CLI's exit code 3)",
  };
  return Object.fromEntries(statuses.map((s) => [String(s), { description: text[s], content: { "application/json": { schema: ref("Error") } } }]));
}

const NEXT = {
  "X-Next-Cursor": { description: "Pass as `cursor` for the next page; absent on the last page", schema: { type: "string" } },
  Link: { description: 'The next page\'s URL, rel="next"', schema: { type: "string" } },
};

function get(summary: string, cli: string, schema: string, parameters: Json[], statuses: number[], paged = false): Json {
  return {
    get: {
      summary,
      description: `The same JSON as \`${cli}\`.`,
      parameters,
      responses: {
        "200": { description: "OK", ...(paged ? { headers: NEXT } : {}), content: { "application/json": { schema: ref(schema) } } },
        ...errors(401, ...statuses),
      },
    },
  };
}

/** The document; `version` is the server's. */
export function openApiDocument(version: string): Json {
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "pi-session",
      version,
      description: "Read-only access to pi coding agent sessions. Every body is what the matching `pi-session … --json` command prints; secrets are masked unless the server runs with --no-redact.",
    },
    servers: [{ url: "/" }],
    security: [{}, { bearer: [] }],
    paths: {
      "/api/sessions": get("List sessions", "pi-session list --all --json", "list", [
        query("cwd", "Only this project's sessions (like `list` run in that folder)"),
        query("q", "pi's /resume search: words (fuzzy), \"phrases\", re:REGEX"),
        query("named", "Only named sessions", { type: "boolean" }),
        query("since", "Only sessions modified on or after this day, month, ISO time or span back (7d): list --since"),
        query("until", "Only sessions modified on or before this day or month, or before this ISO time: list --until"),
        query("model", "Only sessions with replies from a model whose provider/model contains this, any case: list --model"),
        query("tz", "Time zone of since's and until's day (default: the server's)"),
        query("sort", "Order", { type: "string", enum: ["modified", "created", "name", "messages", "size"] }),
        query("limit", "Page size", { type: "integer", minimum: 1 }),
        query("cursor", "From the previous page's X-Next-Cursor"),
      ], [400], true),
      "/api/sessions/{ref}": get("A session's facts", "pi-session info REF --json", "info", [REF], [404, 422]),
      "/api/sessions/{ref}/tree": get("A session's tree", "pi-session tree REF --json", "tree", [REF, query("filter", "Which entries", { type: "string", enum: ["default", "no-tools", "user-only", "labeled-only", "all"] })], [400, 404, 422]),
      "/api/sessions/{ref}/entries": {
        get: {
          summary: "A session's entries in file order, a page at a time",
          description: "The query layer's entries page (no CLI command prints it; `show --json` gives one whole branch). A branch's entries come in file order too.",
          parameters: [
            REF,
            query("after", "Entries after this one (id, unique prefix or label:NAME); the previous page's nextAfter"),
            query("limit", "Page size (default 200, at most 2000); a page whose lines reach 1 MB ends there, its nextAfter going on", { type: "integer", minimum: 1, maximum: 2000 }),
          ],
          responses: {
            "200": { description: "OK", headers: NEXT, content: { "application/json": { schema: ref("entries") } } },
            ...errors(401, 400, 404, 422),
          },
        },
      },
      "/api/sessions/{ref}/context": {
        get: {
          summary: "The model context at an entry",
          description: "The same JSON as `pi-session context REF --format json|llm`: pi's own shapes.",
          parameters: [REF, LEAF, query("format", "json: {messages, thinkingLevel, model}; llm: the convertToLlm messages", { type: "string", enum: ["json", "llm"] })],
          responses: {
            "200": { description: "OK", content: { "application/json": { schema: { oneOf: [ref("context"), ref("context-llm")] } } } },
            ...errors(401, 400, 404, 422),
          },
        },
      },
      "/api/search": get("Full-text search across every project", "pi-session search Q --all --json", "search", [
        query("q", "The query", { type: "string" }, true),
        query("limit", "At most this many hits, newest first (default 50)", { type: "integer", minimum: 1 }),
        query("role", "Only these roles, comma-separated"),
        query("regex", "q is a regular expression", { type: "boolean" }),
        query("session", "Only this session's entries (an id or unique prefix): search --session"),
      ], [400, 404]),
      "/api/stats": get("Tokens and cost, every entry counted once", "pi-session stats --all --json", "stats", [
        query("by", "Grouping", { type: "string", enum: ["day", "week", "month", "hour", "session", "model", "project"] }),
        query("since", "From this day, month, ISO time or span back (7d)"),
        query("until", "Up to this day, month or ISO time"),
        query("breakdown", "Per-model totals under each row", { type: "boolean" }),
      ], [400]),
      "/api/files": get("Which sessions touched a path", "pi-session files PATH --all --json", "files", [query("path", "The file's path", { type: "string" }, true)], [400]),
      "/api/events": {
        get: {
          summary: "Live changes (Server-Sent Events)",
          description: "Events `created`, `appended`, `renamed`, `deleted`, each with data `{type, id, path, size?, name?}`; `ready` once connected.",
          responses: { "200": { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } }, ...errors(401) },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "The --token / PI_SESSION_TOKEN, when the server has one" } },
      schemas: {
        Error: ERROR_SCHEMA,
        entries: ENTRIES_SCHEMA,
        ...Object.fromEntries(Object.keys(CLI_SCHEMAS).map((name) => [name, component(name)])),
      },
    },
  };
}
