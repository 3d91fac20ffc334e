/**
 * The consent page of the authorization server, rendered on the server with React
 * (`renderToStaticMarkup`): plain HTML forms that work without JavaScript, labelled inputs, one
 * heading per step, errors announced with role="alert". React escapes every text and attribute
 * value by construction (no string is pasted into the markup by hand); the page names the client,
 * where it redirects, the scopes and the resource before anything is approved. Referrer policy
 * same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the form
 * posts, which the cross-site defence (src/http/cross-site.ts) must refuse when a session cookie
 * rides along. The page's CSP (oauth.routes.ts) allows its one inline style sheet
 * (`style-src 'unsafe-inline'`) and nothing else: no script runs here.
 */
import { Fragment, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

export interface ConsentView {
  client: { id: string; name: string | null; uri: string | null };
  /** Where the client receives the answer (its redirect URI). */
  redirectUri: string;
  scopes: { name: string; description: string; granted: boolean }[];
  resources: string[];
  /** The signed pending authorization (see mcp-flow.ts). */
  mcpFlow: string;
  /**
   * The account already signed in in this browser, which can approve without a password
   * (`email` null: signed in through an identity provider, terms still to accept).
   */
  account: { email: string | null } | null;
  /** Set when the account must accept these terms first. */
  termsVersion: string | null;
  /** Configured identity providers, by name. */
  identityProviders: string[];
  /** Form targets (absolute URLs under BASE_URL). */
  actions: { passwordAuthorize: string; approve: string; deny: string; identityProvider: (name: string) => string; register?: string };
  error?: string;
  email?: string;
}

const PROVIDER_LABELS: Record<string, string> = { github: 'GitHub', google: 'Google', microsoft: 'Microsoft' };

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f5f4;color:#1c1917}
main{max-width:34rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d6d3d1;border-radius:8px}
h1{font-size:1.5rem;margin-top:0}h2{font-size:1.1rem;margin-bottom:.5rem}
label{display:block;font-weight:600;margin-top:.75rem}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #78716c;border-radius:4px}
.check{display:flex;gap:.5rem;align-items:flex-start;margin-top:.75rem}.check label{display:inline;font-weight:normal;margin:0}
button{margin-top:1rem;padding:.6rem 1rem;font:inherit;border-radius:4px;border:1px solid #1c1917;cursor:pointer}
.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}.error{color:#991b1b;background:#fef2f2;border:1px solid #fca5a5;padding:.5rem;border-radius:4px}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}code{word-break:break-all}`;

/** A whole document: React renders no doctype, so it is prepended. */
function renderPage(title: string, body: ReactNode): string {
  const html = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>{`${title} – Legal Search`}</title>
        {/* a constant of this file, never user input: inserted as is so its `>` selectors stay intact */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>{body}</main>
      </body>
    </html>,
  );
  return `<!doctype html>\n${html}\n`;
}

function Terms({ version }: { version: string }) {
  return (
    <fieldset>
      <legend>Terms of service (version {version})</legend>
      <p>This account has not accepted the current terms yet.</p>
      <div className="check">
        <input type="checkbox" id="accept_terms" name="accept_terms" value="true" required />
        <label htmlFor="accept_terms">I accept the terms of service</label>
      </div>
      <div className="check">
        <input type="checkbox" id="acknowledge_privacy" name="acknowledge_privacy" value="true" required />
        <label htmlFor="acknowledge_privacy">I acknowledge the privacy policy</label>
      </div>
    </fieldset>
  );
}

// size: the page's markup, one JSX tree read top to bottom as the browser shows it (the form's parts are components above)
function ConsentPage({ view }: { view: ConsentView }) {
  const clientName = view.client.name ?? view.client.id;
  const as = view.account?.email ? ` as ${view.account.email}` : '';
  const terms = view.termsVersion ? <Terms version={view.termsVersion} /> : null;
  return (
    <>
      <h1>Allow {clientName} to use Legal Search?</h1>
      <p>
        <strong>{clientName}</strong>
        {view.client.uri && (
          <>
            {' ('}
            <a href={view.client.uri} rel="noopener noreferrer">
              {view.client.uri}
            </a>
            {')'}
          </>
        )}{' '}
        asks to act on your behalf. If you allow it, your answer is sent to <strong>{safeUrl(view.redirectUri).host}</strong> (<code>{view.redirectUri}</code>).
      </p>
      {/* a client ID metadata document: anyone can write any client_name in one, its host is what the user can check */}
      {view.client.id.startsWith('https://') && (
        <p>
          This client is described by <strong>{safeUrl(view.client.id).host}</strong> (<code>{view.client.id}</code>).
        </p>
      )}
      {view.error && (
        <p className="error" role="alert">
          {view.error}
        </p>
      )}
      <section aria-labelledby="asked">
        <h2 id="asked">What it asks for</h2>
        <ul>
          {view.scopes.map((scope) => (
            <li key={scope.name}>
              <strong>{scope.name}</strong>: {scope.description}
              {scope.granted ? null : (
                <>
                  {' '}
                  <em>(not granted: unknown to this server)</em>
                </>
              )}
            </li>
          ))}
        </ul>
        <p>On:</p>
        <ul>
          {view.resources.map((resource) => (
            <li key={resource}>
              <code>{resource}</code>
            </li>
          ))}
        </ul>
      </section>
      {view.account && (
        <section aria-labelledby="signed-in">
          <h2 id="signed-in">Signed in{as}</h2>
          <form method="post" action={view.actions.approve}>
            {terms}
            <button type="submit" className="primary">
              Allow access{as}
            </button>
          </form>
        </section>
      )}
      <section aria-labelledby="sign-in">
        <h2 id="sign-in">{view.account ? 'Or sign in as another account' : 'Sign in to allow access'}</h2>
        <form method="post" action={view.actions.passwordAuthorize}>
          <input type="hidden" name="mcp_flow" value={view.mcpFlow} />
          <label htmlFor="email">E-mail</label>
          <input id="email" name="email" type="email" autoComplete="username" required defaultValue={view.email ?? ''} />
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          {view.account ? null : terms}
          <button type="submit" className="primary">
            Sign in and allow access
          </button>
        </form>
        {view.identityProviders.length > 0 && (
          <p>
            Or sign in with{' '}
            {view.identityProviders.map((name, i) => (
              <Fragment key={name}>
                {i > 0 && ', '}
                <a href={view.actions.identityProvider(name)}>{PROVIDER_LABELS[name] ?? name}</a>
              </Fragment>
            ))}
            .
          </p>
        )}
        {view.actions.register && (
          <p>
            No account yet? <a href={view.actions.register}>Create one</a>; you come back to this page afterwards.
          </p>
        )}
      </section>
      <section aria-labelledby="deny">
        <h2 id="deny">Not what you expected?</h2>
        <form method="post" action={view.actions.deny}>
          <button type="submit">Deny access</button>
        </form>
      </section>
    </>
  );
}

/** The consent page of one pending authorization. */
export function renderConsentPage(view: ConsentView): string {
  return renderPage(`Allow ${view.client.name ?? view.client.id}`, <ConsentPage view={view} />);
}

/** A page for an authorization that cannot go on (expired, opened in another browser, invalid request). */
export function renderErrorPage(options: { title: string; message: string }): string {
  return renderPage(
    options.title,
    <>
      <h1>{options.title}</h1>
      <p role="alert">{options.message}</p>
      <p>Start again from the application that sent you here.</p>
    </>,
  );
}

function safeUrl(value: string): URL {
  try {
    return new URL(value);
  } catch {
    return new URL('about:blank');
  }
}
