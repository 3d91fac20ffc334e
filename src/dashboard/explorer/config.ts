/**
 * What the server tells the explorer (src/http/graphql-explorer.ts writes it into a
 * <meta name="explorer-config"> tag): where the endpoint is and whether the schema is published
 * (GRAPHQL_INTROSPECTION).
 */
export interface ExplorerConfig {
  endpoint: string;
  introspection: boolean;
}

export function readExplorerConfig(): ExplorerConfig {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="explorer-config"]');
  const parsed = meta ? (JSON.parse(meta.content) as Partial<ExplorerConfig>) : {};
  return { endpoint: parsed.endpoint ?? '/graphql', introspection: parsed.introspection ?? true };
}
