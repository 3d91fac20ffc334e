/**
 * The GraphQL context: what the gateway builds per HTTP request and what every subgraph
 * resolver receives. In-process subgraphs get the very same object (LocalGraphQLDataSource
 * passes the gateway context through); a remote subgraph builds its own from its request.
 */
import type { RequestContext } from '../context.js';

export interface GraphqlContext {
  requestContext: RequestContext;
  /** Authorization and Cookie of the HTTP request, forwarded to remote subgraphs. */
  incomingHeaders?: Record<string, string>;
}

/** The RequestContext of a GraphQL context; a missing one is a wiring bug, never a client error. */
export function requestContextOf(context: unknown): RequestContext {
  const requestContext = (context as Partial<GraphqlContext> | null | undefined)?.requestContext;
  if (!requestContext) throw new Error('GraphQL context has no requestContext: build it with graphqlContext()');
  return requestContext;
}

export function graphqlContext(requestContext: RequestContext, incomingHeaders?: Record<string, string>): GraphqlContext {
  return incomingHeaders ? { requestContext, incomingHeaders } : { requestContext };
}
