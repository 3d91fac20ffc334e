/**
 * The query explorer: GraphiQL, bundled with the dashboard's build so that no request leaves
 * the host. With introspection off the schema is not asked for (GraphiQL runs without
 * completion and documentation) and a notice says so.
 */
import { GraphiQL } from 'graphiql';
import { useEffect, useMemo, useRef } from 'react';
import { repairGraphiqlAccessibility } from './accessibility';
import type { ExplorerConfig } from './config';
import { explorerFetcher } from './fetcher';
import { storageWithoutHeaders } from './storage';

const DEFAULT_QUERY = `# Operations run as you: the dashboard's session when you are signed in, or an API key
# under Headers, e.g. {"authorization": "Bearer sk-…"} (not stored by the explorer).
query Countries {
  countries {
    code
  }
}
`;

export function Explorer({ config }: { config: ExplorerConfig }) {
  const fetcher = useMemo(() => explorerFetcher(config.endpoint), [config.endpoint]);
  const storage = useMemo(() => storageWithoutHeaders(), []);
  const main = useRef<HTMLElement>(null);
  useEffect(() => (main.current ? repairGraphiqlAccessibility(main.current) : undefined), []);
  return (
    <div className="explorer">
      <header className="explorer-bar">
        <h1>GraphQL explorer</h1>
        <p>
          Operations run as you: your dashboard session, or an API key under Headers, <code>{'{"authorization": "Bearer sk-…"}'}</code>.{' '}
          <a href="/dashboard/">Dashboard</a>
        </p>
        {!config.introspection && (
          <p role="status" className="explorer-notice">
            This server does not publish its schema (introspection is off): operations still run, without completion or documentation.
          </p>
        )}
      </header>
      <main className="explorer-main" ref={main}>
        <GraphiQL
          fetcher={fetcher}
          schema={config.introspection ? undefined : null}
          defaultQuery={DEFAULT_QUERY}
          storage={storage}
          shouldPersistHeaders={false}
          showPersistHeadersSettings={false}
          defaultEditorToolsVisibility="headers"
          forcedTheme="light"
        >
          {/* GraphiQL's own logo links to its project page: the explorer names this service instead */}
          <GraphiQL.Logo>Legal Search</GraphiQL.Logo>
        </GraphiQL>
      </main>
    </div>
  );
}
