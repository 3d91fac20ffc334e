/**
 * Field suggestions in error messages ("Cannot query field "adminUser" on type "Query". Did you
 * mean "adminUsers"?") give the schema away piece by piece: where introspection is off, they
 * must be off too.
 *
 * Apollo Server's `hideSchemaDetailsFromClientErrors` strips them from validation errors only;
 * the variable coercion errors of an operation (BAD_USER_INPUT: `Field "qq" is not defined by
 * type "SearchInput". Did you mean "q"?`) carry them too. Stripping them where every error is
 * formatted covers both.
 *
 * And the refusal of an introspection query then says what it means to the caller (Apollo's
 * message tells the server's programmer to "pass introspection: true to ApolloServer").
 */
import type { GraphQLFormattedError } from 'graphql';

/** graphql-js's suggestion sentences: ` Did you mean "a"?`, ` Did you mean "a", "b", or "c"?`, ` Did you mean the enum value "A"?`. */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** `formatted` without graphql-js's "Did you mean …?" sentences. */
export function withoutFieldSuggestions(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const message = formatted.message.replace(SUGGESTION, '');
  return message === formatted.message ? formatted : { ...formatted, message };
}

/** `extensions.code` of an introspection query refused because introspection is off (GRAPHQL_INTROSPECTION). */
export const INTROSPECTION_DISABLED_CODE = 'INTROSPECTION_DISABLED';

export const INTROSPECTION_DISABLED_MESSAGE = 'GraphQL introspection is not allowed on this server: its schema is not published (GRAPHQL_INTROSPECTION is off).';

/** Apollo's refusal of `__schema` / `__type` when introspection is off. */
const APOLLO_INTROSPECTION_REFUSAL = /^GraphQL introspection is not allowed by Apollo Server/;

/** `formatted` with the message and code above when it is Apollo's introspection refusal; unchanged otherwise. */
export function withIntrospectionRefusal(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!APOLLO_INTROSPECTION_REFUSAL.test(formatted.message)) return formatted;
  return { ...formatted, message: INTROSPECTION_DISABLED_MESSAGE, extensions: { ...formatted.extensions, code: INTROSPECTION_DISABLED_CODE } };
}
