/**
 * The MCP server factory: one McpServer with every tool, built per streamable-HTTP request and
 * per SSE connection (cheap: registering the tools is a few object allocations).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Caller, RequestContext, RequestContexts } from '../context.js';
import { DomainError } from '../errors.js';
import type { Logger } from '../logger.js';
import { answerPortableToolSchemas } from './portable-schemas.js';
import { registerTools, type ToolServices } from './tools.js';

export const MCP_SERVER_NAME = 'legal-search';

/** The key of AuthInfo.extra where the door puts the authenticated caller. */
export const CALLER_KEY = 'caller';

/** A new MCP server over the shared services. */
export function createMcpServer(services: ToolServices, options: { version: string; logger: Pick<Logger, 'error'>; contexts: RequestContexts }): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: options.version },
    {
      instructions:
        'Legal search over European and worldwide case law, legislation and doctrine. Start with search (or resolve_reference for a citation), ' +
        'then get_document for the full text; find_citing_documents and list_citations follow citations from a provision to the case law and back. discover_countries, discover_sources, get_filters and get_courts list the exact filter values. ' +
        'Every tool call counts toward the caller\'s plan.',
    },
  );
  answerPortableToolSchemas(server);
  registerTools(server, services, (extra) => mcpContext(options.contexts, extra), options.logger);
  // The SDK advertises `tools.listChanged: true` once a tool is registered. This server could never
  // send that notification (stateless /mcp keeps no stream to write it to: GET /mcp is 405), and its
  // tool list is fixed at build time: say so, or clients wait for notifications that never come.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/**
 * The RequestContext of one tool call: the caller the door authenticated for this HTTP request
 * (streamable HTTP: the POST; SSE: the POST to the message endpoint), marked as an MCP call.
 * One tool call is one message of one HTTP request: it gets its own unit of work from `contexts`,
 * and the SDK's abort signal of the call.
 */
export function mcpContext(contexts: RequestContexts, extra: { authInfo?: { extra?: Record<string, unknown> }; signal?: AbortSignal }): RequestContext {
  const caller = extra.authInfo?.extra?.[CALLER_KEY] as Caller | undefined;
  if (!caller) throw new DomainError('unauthorized', 'Not authenticated');
  // The SDK aborts `extra.signal` when the call is cancelled or its HTTP request closes (mcp.routes.ts closes the server then).
  const ctx = contexts.forCaller(caller, undefined, extra.signal);
  ctx.door = 'mcp';
  return ctx;
}
