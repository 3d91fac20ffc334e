/**
 * Field suggestions in error messages ("Cannot query field "adminUser" on type "Query". Did you
 * mean "adminUsers"?") give the schema away piece by piece: where introspection is off, they
 * must be off too.
 *
 * Apollo Server's `hideSchemaDetailsFromClientErrors` strips them from validation errors only;
 * the variable coercion errors of an operation (BAD_USER_INPUT: `Field "qq" is not defined by
 * type "SearchInput". Did you mean "q"?`) carry them too. Stripping them where every error is
 * formatted covers both.
 */
import type { GraphQLFormattedError } from 'graphql';

/** graphql-js's suggestion sentences: ` Did you mean "a"?`, ` Did you mean "a", "b", or "c"?`, ` Did you mean the enum value "A"?`. */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** `formatted` without graphql-js's "Did you mean …?" sentences. */
export function withoutFieldSuggestions(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const message = formatted.message.replace(SUGGESTION, '');
  return message === formatted.message ? formatted : { ...formatted, message };
}
