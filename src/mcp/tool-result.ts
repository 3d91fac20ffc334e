/**
 * The MCP door's error and result mapper: tool results carry the service's answer both as
 * structured content and as JSON text (for clients that only read text); domain errors become
 * `isError` results with a message a model can act on, never protocol errors.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asDomainError, DomainError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';

/** A successful tool result: `value` as structured content and as its JSON text. */
export function structuredResult(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

/** An `isError` result for a failed tool call (DomainErrors say what to change; others are logged). */
export function toolError(error: unknown, logger: Pick<Logger, 'error'>, tool: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: toolErrorMessage(error, logger, tool) }] };
}

function toolErrorMessage(thrown: unknown, logger: Pick<Logger, 'error'>, tool: string): string {
  const error = asDomainError(thrown);
  if (error instanceof ValidationError) {
    const problems = error.issues.map((i) => `${i.loc.join('.') || '(arguments)'}: ${i.msg}`);
    return `Invalid arguments: ${problems.join('; ')}`;
  }
  if (error instanceof DomainError) {
    switch (error.code) {
      case 'rate_limited': {
        const seconds = Math.max(1, Math.ceil(error.details?.retryAfterSeconds ?? 1));
        return `${error.message}. Retry after ${seconds} second${seconds === 1 ? '' : 's'}.`;
      }
      case 'not_found':
        return `Not found: ${error.message.replace(/^Not found:\s*/i, '')}`;
      case 'unauthorized':
        return `Not authorized: ${error.message}`;
      case 'unavailable':
        return `Temporarily unavailable: ${error.message}`;
      default:
        return error.message;
    }
  }
  logger.error(`mcp: tool ${tool} failed`, error);
  return 'Internal error while running the tool; try again later.';
}
