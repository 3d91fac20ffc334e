/**
 * GraphQL arguments and input fields are camelCase (GraphQL's convention, issue #35 item 7); the
 * services take the REST shapes, whose fields are snake_case. These helpers translate at the
 * door, both ways: a request's input object into the REST body, and a validation issue's REST
 * location back into the names the client wrote.
 */

/** `top_k` → `topK`. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** `topK` → `top_k`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * A GraphQL input object as the REST body the service validates: camelCase keys written
 * snake_case, and null or absent fields left out so the REST schema's defaults apply (GraphQL
 * gives null for an omitted nullable field; zod's defaults only fill undefined).
 */
export function restBody(input: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => [snakeCase(key), value]),
  );
}
