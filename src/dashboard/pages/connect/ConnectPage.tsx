/**
 * Connect an AI agent: the MCP endpoint URLs, copy-paste configuration for common MCP clients
 * (OAuth sign-in in the browser, or an API key), and the agents already authorised, with revoke.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from '../../app/hooks';
import { publicOrigin } from '../../app/config';
import { CopyButton } from '../../components/CopyButton';
import { formatDate } from '../../components/format';
import { Field, Page } from '../../components/Page';
import { Empty, FormError, QueryState } from '../../components/states';
import { OAuthGrantsDocument, RevokeOAuthGrantDocument } from '../../gql/graphql';
import { type AuthMode, snippets } from './snippets';

export default function ConnectPage() {
  const origin = publicOrigin();
  const mcpUrl = `${origin}/mcp`;
  const sseUrl = `${origin}/sse`;
  const [mode, setMode] = useState<AuthMode>('oauth');
  const [key, setKey] = useState('');

  return (
    <Page title="Connect an AI agent" lead="Give Claude, Cursor, VS Code or any MCP client the search, documents and citation tools of this service. Its calls count as your usage.">
      <Endpoints mcpUrl={mcpUrl} sseUrl={sseUrl} />

      <section className="card" aria-labelledby="auth-title">
        <h2 id="auth-title">How the agent signs in</h2>
        <fieldset className="filter-group">
          <legend>Authentication</legend>
          <div className="check">
            <input id="mode-oauth" type="radio" name="mode" checked={mode === 'oauth'} onChange={() => setMode('oauth')} />
            <label htmlFor="mode-oauth">
              <strong>OAuth (recommended)</strong>: the client opens a page of this service in your browser; you sign in (or create an account) and allow access. No key to paste; revoke it below at any time.
            </label>
          </div>
          <div className="check">
            <input id="mode-key" type="radio" name="mode" checked={mode === 'key'} onChange={() => setMode('key')} />
            <label htmlFor="mode-key">
              <strong>API key</strong>: for clients without OAuth support. <Link to="/keys">Create a key</Link> and paste it here to fill it into the snippets (it stays in this page).
            </label>
          </div>
        </fieldset>
        {mode === 'key' && (
          <Field id="snippet-key" label="Your API key" hint="Only used to fill in the snippets below; nothing is sent.">
            <input id="snippet-key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value.trim())} placeholder="sk-…" aria-describedby="snippet-key-hint" />
          </Field>
        )}
      </section>

      {snippets(mcpUrl, mode, key).map((s) => (
        <section className="card" key={s.id} aria-labelledby={`snippet-${s.id}`}>
          <div className="snippet-head">
            <h3 id={`snippet-${s.id}`}>{s.client}</h3>
            <CopyButton text={s.text} label={`Copy ${s.client} configuration`} />
          </div>
          <p className="small muted">In {s.where}:</p>
          <pre tabIndex={0} aria-label={`${s.client} configuration`}>
            <code>{s.text}</code>
          </pre>
        </section>
      ))}

      <AuthorisedAgents />
    </Page>
  );
}

/** The two MCP endpoint URLs to copy. */
function Endpoints({ mcpUrl, sseUrl }: { mcpUrl: string; sseUrl: string }) {
  return (
    <section className="card" aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">MCP endpoints</h2>
      <dl className="endpoints">
        <div>
          <dt>Streamable HTTP (current clients)</dt>
          <dd>
            <code>{mcpUrl}</code> <CopyButton text={mcpUrl} label="Copy URL" />
          </dd>
        </div>
        <div>
          <dt>Server-sent events (older clients)</dt>
          <dd>
            <code>{sseUrl}</code> <CopyButton text={sseUrl} label="Copy URL" />
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The agents the account allowed through OAuth, each with revoke. */
function AuthorisedAgents() {
  const grants = useQuery(OAuthGrantsDocument);
  const revoke = useMutation(RevokeOAuthGrantDocument);
  return (
    <section aria-labelledby="grants-title">
      <h2 id="grants-title">Agents you authorised</h2>
      <QueryState result={grants} loadingLabel="Loading authorised agents…">
        {(data) =>
          data.oauthGrants.length === 0 ? (
            <Empty title="No agent authorised yet">
              <p>After you allow an agent through OAuth it is listed here.</p>
            </Empty>
          ) : (
            <ul className="plain-list">
              {data.oauthGrants.map((g) => (
                <li key={g.id} className="grant">
                  <span>
                    <strong>{g.client_name ?? g.client_id}</strong>{' '}
                    <span className="small muted">
                      since {formatDate(g.authorized_at)} · {g.scopes.join(', ')}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Revoke access of ${g.client_name ?? g.client_id}`}
                    onClick={async () => {
                      if ((await revoke.run({ id: g.id })) !== undefined) grants.reload();
                    }}
                  >
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <FormError error={revoke.error} />
    </section>
  );
}
