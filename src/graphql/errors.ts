/**
 * The one place where DomainErrors become GraphQL errors. Subgraph resolvers throw domain
 * errors; `toGraphQLError` turns them into GraphQLErrors whose `extensions.code` survives the
 * trip through the gateway (the gateway rebuilds subgraph errors from message, path and
 * extensions only, so the mapping must happen inside the subgraph).
 */
import { GraphQLError } from 'graphql';
import { asDomainError, DomainError, type ErrorCode, ValidationError } from '../errors.js';
import { camelCase } from './argument-names.js';

/** GraphQL `extensions.code` per domain error code (Apollo's conventional names where one exists). */
export const GRAPHQL_ERROR_CODES: Record<ErrorCode, string> = {
  validation_failed: 'BAD_USER_INPUT',
  bad_request: 'BAD_REQUEST',
  not_found: 'NOT_FOUND',
  unauthorized: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  conflict: 'CONFLICT',
  rate_limited: 'RATE_LIMITED',
  unavailable: 'SERVICE_UNAVAILABLE',
  bad_gateway: 'BAD_GATEWAY',
  abandoned: 'CLIENT_CLOSED_REQUEST',
};

export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/**
 * Maps anything a resolver threw to a GraphQLError:
 * - DomainError: its message, `extensions.code` from GRAPHQL_ERROR_CODES, plus `issues`
 *   (validation_failed) or `retryAfterSeconds` (rate_limited);
 * - GraphQLError: unchanged (already meant for the client);
 * - anything else: masked as INTERNAL_SERVER_ERROR; `onInternalError` sees the original.
 */
export function toGraphQLError(thrown: unknown, onInternalError?: (error: unknown) => void): GraphQLError {
  if (thrown instanceof GraphQLError) return thrown;
  const error = asDomainError(thrown);
  if (error instanceof DomainError) {
    const extensions: Record<string, unknown> = { code: GRAPHQL_ERROR_CODES[error.code] ?? 'INTERNAL_SERVER_ERROR' };
    if (error.details?.issues) extensions.issues = error.details.issues;
    if (error.details?.retryAfterSeconds !== undefined) extensions.retryAfterSeconds = error.details.retryAfterSeconds;
    return new GraphQLError(error.message, { extensions, originalError: error });
  }
  onInternalError?.(error);
  return new GraphQLError(INTERNAL_ERROR_MESSAGE, {
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
    originalError: error instanceof Error ? error : undefined,
  });
}

/** Runs a resolver body, rethrowing whatever it throws through toGraphQLError. */
export async function mapErrors<T>(run: () => Promise<T> | T, onInternalError?: (error: unknown) => void): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toGraphQLError(error, onInternalError);
  }
}

/** Resolves to null instead of throwing when the service reports not_found (nullable lookups). */
export async function nullWhenNotFound<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

/**
 * Prefixes the locs of a ValidationError with the argument the value came from (as the REST
 * door prefixes "body" or "query"): the service reports `["top_k"]`, the client reads
 * `["input", "topK"]`, the path of the offending value in its operation (REST's snake_case
 * names written camelCase, as the GraphQL arguments and input fields are).
 */
export async function validatedAs<T>(argument: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(error.issues.map((issue) => ({ ...issue, loc: [argument, ...issue.loc.map((part) => (typeof part === 'string' ? camelCase(part) : part))] })));
    }
    throw error;
  }
}
