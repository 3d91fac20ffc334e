/**
 * The consent page of the authorization server, rendered on the server: plain HTML forms that
 * work without JavaScript, labelled inputs, one heading per step, errors announced with
 * role="alert". Every value is HTML-escaped; the page names the client, where it redirects,
 * the scopes and the resource before anything is approved. Referrer policy same-origin, not
 * no-referrer: under no-referrer a browser sends `Origin: null` with the form posts, which the
 * cross-site defence (src/http/cross-site.ts) must refuse when a session cookie rides along.
 */

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

/** HTML-escapes text for element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f5f4;color:#1c1917}
main{max-width:34rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d6d3d1;border-radius:8px}
h1{font-size:1.5rem;margin-top:0}h2{font-size:1.1rem;margin-bottom:.5rem}
label{display:block;font-weight:600;margin-top:.75rem}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #78716c;border-radius:4px}
.check{display:flex;gap:.5rem;align-items:flex-start;margin-top:.75rem}.check label{display:inline;font-weight:normal;margin:0}
button{margin-top:1rem;padding:.6rem 1rem;font:inherit;border-radius:4px;border:1px solid #1c1917;cursor:pointer}
.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}.error{color:#991b1b;background:#fef2f2;border:1px solid #fca5a5;padding:.5rem;border-radius:4px}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}code{word-break:break-all}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} – Legal Search</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The consent page of one pending authorization. */
export function renderConsentPage(view: ConsentView): string {
  const clientName = view.client.name ?? view.client.id;
  const clientLink = view.client.uri ? ` (<a href="${escapeHtml(view.client.uri)}" rel="noopener noreferrer">${escapeHtml(view.client.uri)}</a>)` : '';
  const redirect = safeUrl(view.redirectUri);
  const scopes = view.scopes
    .map((s) => `<li><strong>${escapeHtml(s.name)}</strong>: ${escapeHtml(s.description)}${s.granted ? '' : ' <em>(not granted: unknown to this server)</em>'}</li>`)
    .join('\n');
  const resources = view.resources.map((r) => `<li><code>${escapeHtml(r)}</code></li>`).join('\n');
  const flow = `<input type="hidden" name="mcp_flow" value="${escapeHtml(view.mcpFlow)}">`;
  const terms = view.termsVersion
    ? `<fieldset>
<legend>Terms of service (version ${escapeHtml(view.termsVersion)})</legend>
<p>This account has not accepted the current terms yet.</p>
<div class="check"><input type="checkbox" id="accept_terms" name="accept_terms" value="true" required><label for="accept_terms">I accept the terms of service</label></div>
<div class="check"><input type="checkbox" id="acknowledge_privacy" name="acknowledge_privacy" value="true" required><label for="acknowledge_privacy">I acknowledge the privacy policy</label></div>
</fieldset>`
    : '';
  const as = view.account?.email ? ` as ${escapeHtml(view.account.email)}` : '';
  const signedIn = view.account
    ? `<section aria-labelledby="signed-in">
<h2 id="signed-in">Signed in${as}</h2>
<form method="post" action="${escapeHtml(view.actions.approve)}">
${terms}
<button type="submit" class="primary">Allow access${as}</button>
</form>
</section>`
    : '';
  const providers = view.identityProviders.length
    ? `<p>Or sign in with ${view.identityProviders
        .map((name) => `<a href="${escapeHtml(view.actions.identityProvider(name))}">${escapeHtml(PROVIDER_LABELS[name] ?? name)}</a>`)
        .join(', ')}.</p>`
    : '';
  const body = `<h1>Allow ${escapeHtml(clientName)} to use Legal Search?</h1>
<p><strong>${escapeHtml(clientName)}</strong>${clientLink} asks to act on your behalf. If you allow it, your answer is sent to
<strong>${escapeHtml(redirect.host)}</strong> (<code>${escapeHtml(view.redirectUri)}</code>).</p>
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
<section aria-labelledby="asked">
<h2 id="asked">What it asks for</h2>
<ul>
${scopes}
</ul>
<p>On:</p>
<ul>
${resources}
</ul>
</section>
${signedIn}
<section aria-labelledby="sign-in">
<h2 id="sign-in">${view.account ? 'Or sign in as another account' : 'Sign in to allow access'}</h2>
<form method="post" action="${escapeHtml(view.actions.passwordAuthorize)}">
${flow}
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(view.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
${view.account ? '' : terms}
<button type="submit" class="primary">Sign in and allow access</button>
</form>
${providers}
${view.actions.register ? `<p>No account yet? <a href="${escapeHtml(view.actions.register)}">Create one</a>; you come back to this page afterwards.</p>` : ''}
</section>
<section aria-labelledby="deny">
<h2 id="deny">Not what you expected?</h2>
<form method="post" action="${escapeHtml(view.actions.deny)}">
<button type="submit">Deny access</button>
</form>
</section>`;
  return page(`Allow ${clientName}`, body);
}

/** A page for an authorization that cannot go on (expired, opened in another browser, invalid request). */
export function renderErrorPage(options: { title: string; message: string }): string {
  return page(
    options.title,
    `<h1>${escapeHtml(options.title)}</h1>
<p role="alert">${escapeHtml(options.message)}</p>
<p>Start again from the application that sent you here.</p>`,
  );
}

function safeUrl(value: string): URL {
  try {
    return new URL(value);
  } catch {
    return new URL('about:blank');
  }
}
