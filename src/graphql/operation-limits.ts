/**
 * Bounds on a GraphQL operation, checked before the gateway's query planner sees it.
 *
 * The planner runs on the event loop and its work grows with the operation (every aliased copy
 * of a selection is planned again, and varying the alias names defeats the plan cache), so an
 * unbounded operation freezes the whole process. Each bound is checked where it is cheapest:
 *
 * - the request body: `express.json({ limit: maxBodyBytes })` (before any GraphQL work);
 * - tokens: graphql-js's own `parse(…, { maxTokens })`, which stops lexing at the bound, so a
 *   refused document costs at most `maxTokens` tokens of work; every later step (validation,
 *   including graphql-js's quadratic overlapping-fields rule, and planning) then works on a
 *   bounded document;
 * - aliases, depth, directives and cost: GraphQL Armor's validation rules, run by Apollo Server
 *   with graphql-js's own rules, before the operation reaches execution (and so the planner).
 *
 * A refusal is a GraphQL error whose `extensions.code` names the bound (OPERATION_LIMIT_CODES),
 * with HTTP status 400, as Apollo answers other parse and validation errors.
 */
import type { ApolloServerOptions } from '@apollo/server';
import type { ErrorRequestHandler } from 'express';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, type GraphQLFormattedError, type ValidationContext, type ValidationRule } from 'graphql';
import type { GraphqlOperationLimits } from '../config.js';

/** `extensions.code` of each refusal (documented in docs/security.md, "GraphQL operations"). */
export const OPERATION_LIMIT_CODES = {
  body: 'GRAPHQL_REQUEST_TOO_LARGE',
  tokens: 'GRAPHQL_TOO_MANY_TOKENS',
  aliases: 'GRAPHQL_TOO_MANY_ALIASES',
  depth: 'GRAPHQL_TOO_DEEP',
  directives: 'GRAPHQL_TOO_MANY_DIRECTIVES',
  cost: 'GRAPHQL_TOO_COSTLY',
} as const;

export type OperationLimitName = keyof typeof OPERATION_LIMIT_CODES;

/** An operation over one of the bounds (a validation error whose code survives Apollo's wrapping, see `limitErrorCode`). */
export class OperationLimitError extends GraphQLError {
  constructor(
    message: string,
    readonly limit: OperationLimitName,
  ) {
    super(message);
    this.name = 'OperationLimitError';
  }
}

/** What an operation measures against each bound Armor checks (the `value` its rule found). */
export type OperationMeasure = (limit: ArmorLimitName, value: number) => void;

/** The bounds GraphQL Armor's validation rules check. */
export type ArmorLimitName = Exclude<OperationLimitName, 'body' | 'tokens'>;

/**
 * GraphQL Armor's rules for aliases, depth, directives and cost at `limits`. A refusal is
 * reported to the validation context as an OperationLimitError (not thrown: a rule that throws
 * aborts graphql-js's validate() with an exception, which Apollo answers with a 500).
 * `onMeasure` receives the value each rule measured on an accepted operation (tests, benchmarks).
 */
export function operationLimitRules(limits: GraphqlOperationLimits, onMeasure?: OperationMeasure): ValidationRule[] {
  const refuse = (limit: OperationLimitName) => (context: ValidationContext | null, error: GraphQLError) =>
    // Armor prefixes its messages with "Syntax Error: ", which they are not.
    context?.reportError(new OperationLimitError(error.message.replace(/^Syntax Error: /, ''), limit));
  const handlers = (limit: ArmorLimitName) => ({
    onReject: [refuse(limit)],
    onAccept: onMeasure ? [(_context: ValidationContext | null, details: { n: number }) => onMeasure(limit, details.n)] : [],
    propagateOnRejection: false,
  });
  return new ApolloArmor({
    // The token bound is graphql-js's parser option (one parse instead of Armor's second one);
    // field suggestions are stripped where errors are formatted (field-suggestions.ts), which
    // also covers variable errors that Armor's plugin would leave half-masked.
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: false },
    // Every alias counts, `__typename` ones too (Armor allows those by default): planning each
    // costs little, but nothing needs hundreds of them.
    maxAliases: { n: limits.maxAliases, allowList: [], ...handlers('aliases') },
    // A fragment spread or inline fragment counts as a level (Armor's default): nesting fragments
    // is a way to make an operation deep that the schema's own depth would not allow.
    maxDepth: { n: limits.maxDepth, ...handlers('depth') },
    maxDirectives: { n: limits.maxDirectives, ...handlers('directives') },
    costLimit: { maxCost: limits.maxCost, ...handlers('cost') },
  }).protect().validationRules;
}

/** graphql-js's message when `parse` stops at `maxTokens` ("more that" in 16.x; pinned by the tests). */
const TOO_MANY_TOKENS = /^Syntax Error: Document contains more (?:than|that) \d+ tokens\. Parsing aborted\.$/;

/**
 * The OPERATION_LIMIT_CODES code of a refused operation, else undefined. Apollo gives every
 * validation error the code GRAPHQL_VALIDATION_FAILED and every parse error
 * GRAPHQL_PARSE_FAILED, whatever the rule set; the original error tells which bound refused it.
 */
export function limitErrorCode(error: unknown): string | undefined {
  if (!(error instanceof GraphQLError)) return undefined;
  const original = error.originalError;
  if (original instanceof OperationLimitError) return OPERATION_LIMIT_CODES[original.limit];
  if (original instanceof GraphQLError && TOO_MANY_TOKENS.test(original.message)) return OPERATION_LIMIT_CODES.tokens;
  return undefined;
}

/**
 * The Apollo Server options that enforce `limits` (all but the body size, which is the body
 * parser's): the parser's token bound and Armor's rules. Their errors get their codes from
 * `withLimitErrorCode` (a formatError step).
 */
export function operationLimitOptions<C extends object>(limits: GraphqlOperationLimits): Pick<ApolloServerOptions<C>, 'parseOptions' | 'validationRules'> {
  return { parseOptions: { maxTokens: limits.maxTokens }, validationRules: operationLimitRules(limits) };
}

/** `formatted` with the code (and, for tokens, a message without "Syntax Error") of the bound that refused the operation; unchanged otherwise. */
export function withLimitErrorCode(formatted: GraphQLFormattedError, error: unknown, limits: GraphqlOperationLimits): GraphQLFormattedError {
  const code = limitErrorCode(error);
  if (!code) return formatted;
  const message = code === OPERATION_LIMIT_CODES.tokens ? `Tokens limit of ${limits.maxTokens} exceeded.` : formatted.message;
  return { ...formatted, message, extensions: { ...formatted.extensions, code } };
}

/**
 * Answers a /graphql body over `maxBodyBytes` (refused by express.json before it is read whole)
 * as a GraphQL error, 413, instead of the REST door's `{"detail": …}`.
 */
export function refuseLargeBodies(maxBodyBytes: number): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if ((error as { type?: unknown } | null)?.type !== 'entity.too.large') return next(error);
    res.status(413).json({
      errors: [{ message: `Request body too large: at most ${maxBodyBytes} bytes.`, extensions: { code: OPERATION_LIMIT_CODES.body } }],
    });
  };
}
