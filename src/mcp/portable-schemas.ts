/**
 * Tool schemas every MCP client can read. zod writes a nullable field as `type: ["string", "null"]`
 * and a free-form value as `{}`: legal JSON Schema, but clients that map tool schemas onto a
 * single-`type` dialect (the OpenAPI subset of Gemini's function declarations) reject the tool or
 * drop the constraint, and the MCP Inspector's `--strict` reports both. The tools/list answer is
 * rewritten into the portable spelling: `anyOf` of single types, and `true` for "any value". The
 * same zod schemas keep their spelling in /openapi.json.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

type Json = unknown;

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = ['additionalProperties', 'items', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'definitions', '$defs'];

/** `schema` in the portable spelling (a new object; the input is not changed). */
export function portableJsonSchema(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_KEYWORDS.includes(key)) out[key] = isObject(value) && Object.keys(value).length === 0 ? true : portableJsonSchema(value);
    else if (SCHEMA_LIST_KEYWORDS.includes(key) && Array.isArray(value)) out[key] = value.map(portableJsonSchema);
    else if (SCHEMA_MAP_KEYWORDS.includes(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, portableJsonSchema(s)]));
    else out[key] = value;
  }
  if (Array.isArray(out.type)) {
    const branches = (out.type as Json[]).map((type) => ({ type }));
    delete out.type;
    // the type-specific keywords (maxLength, minimum…) stay beside anyOf: each applies to its own type only
    if (Array.isArray(out.anyOf)) out.allOf = [...((out.allOf as Json[] | undefined) ?? []), { anyOf: branches }];
    else out.anyOf = branches;
  }
  return out;
}

/**
 * Makes `server` answer tools/list with portable schemas. Call before the first tool is
 * registered: the SDK installs its tools/list handler then, through `setRequestHandler`, and
 * offers no other way to reach the list it builds.
 */
export function answerPortableToolSchemas(server: McpServer): void {
  const protocol = server.server;
  const setRequestHandler = protocol.setRequestHandler.bind(protocol);
  protocol.setRequestHandler = ((schema: unknown, handler: (...args: unknown[]) => unknown) => {
    if (schema !== ListToolsRequestSchema) return setRequestHandler(schema as never, handler as never);
    return setRequestHandler(ListToolsRequestSchema, async (...args: unknown[]) => {
      const result = (await (handler as (...a: unknown[]) => Promise<ListToolsResult>)(...args)) as ListToolsResult;
      return {
        ...result,
        tools: result.tools.map((tool) => ({
          ...tool,
          inputSchema: portableJsonSchema(tool.inputSchema) as ListToolsResult['tools'][number]['inputSchema'],
          ...(tool.outputSchema && { outputSchema: portableJsonSchema(tool.outputSchema) as ListToolsResult['tools'][number]['outputSchema'] }),
        })),
      };
    });
  }) as typeof protocol.setRequestHandler;
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
