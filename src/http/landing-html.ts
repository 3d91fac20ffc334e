/**
 * The public landing page's HTML (GET /): what the service is, what it covers (the live figures
 * of GET /v1/stats), an example search anyone can run when the Anonymous plan is on, and the ways
 * in (API reference, GraphQL explorer, MCP set-up, the dashboard). A pure function of its view:
 * every value from the corpus or the request is escaped here.
 *
 * Server-rendered with no framework so the page paints from its first response (LCP budget 1.5 s,
 * `npm run bench:dashboard`); the only script is the example search (landing-search.js, a few
 * hundred bytes), which the page does without: the form and the curl command still say how.
 */
import type { Stats } from '../modules/legal-data/catalog.schema.js';

export interface LandingView {
  baseUrl: string;
  /** The catalogue's figures, or null when they could not be read (the page still renders). */
  stats: Stats | null;
  /** ALLOW_ANONYMOUS: callers without credentials may search under the Anonymous plan. */
  anonymousSearch: boolean;
  /** The Anonymous plan's limits, shown beside the example search. */
  anonymousLimits: { perDay: number; perMinute: number };
  /** A signed-in visitor gets "Go to your dashboard" instead of "Sign in". */
  signedIn: boolean;
  /** Where the terms and the privacy notice are read (legal-documents.ts). */
  legal: { terms: string; privacy: string };
}

/** The query the example search starts with: it matches a provision of every corpus slice the tests use (§ 826 BGB). */
export const EXAMPLE_QUERY = 'sittenwidrige vorsätzliche Schädigung';

const NAMESPACE_NAMES: Record<string, string> = { case_law: 'court decisions', legislation: 'legislation (acts and articles)', doctrine: 'doctrine' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const count = (n: number) => n.toLocaleString('en-GB');

function coverage(stats: Stats | null): string {
  if (!stats) return '<p>The figures of the collection are not available right now; <a href="/v1/stats">/v1/stats</a> has them when they are.</p>';
  const namespaces = Object.entries(stats.documents_by_namespace)
    .filter(([, n]) => n > 0)
    .map(([ns, n]) => `<li><strong>${count(n)}</strong> ${escapeHtml(NAMESPACE_NAMES[ns] ?? ns)}</li>`)
    .join('');
  const range = stats.date_range.min && stats.date_range.max ? `<p>Dated from ${escapeHtml(stats.date_range.min)} to ${escapeHtml(stats.date_range.max)}.</p>` : '';
  return `<p class="figures"><span><strong data-stat="documents">${count(stats.total_documents)}</strong> documents</span>
<span><strong data-stat="countries">${count(stats.countries)}</strong> jurisdictions</span>
<span><strong data-stat="sources">${count(stats.sources)}</strong> sources</span></p>
<ul class="namespaces">${namespaces}</ul>${range}
<p class="muted">Live from <a href="/v1/stats">/v1/stats</a>${stats.index.ready ? '' : ': the search index is still being built, so searches may find fewer documents for now'}.</p>`;
}

function curl(view: LandingView): string {
  const auth = view.anonymousSearch ? '' : ` \\\n  -H 'Authorization: Bearer $API_KEY'`;
  const body = JSON.stringify({ q: EXAMPLE_QUERY, namespace: 'legislation', top_k: 3 });
  return `curl -X POST ${view.baseUrl}/v1/search${auth} \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}

function exampleSearch(view: LandingView): string {
  const intro = view.anonymousSearch
    ? `<p>No account needed: up to ${view.anonymousLimits.perDay} searches a day (${view.anonymousLimits.perMinute} a minute) from your address. <a href="/dashboard/register">A free account</a> gets far more, and API keys.</p>`
    : `<p>Searching needs an account on this server: <a href="/dashboard/register">create a free one</a>, make an API key, and run the command below.</p>`;
  const form = view.anonymousSearch
    ? `<form id="example-search" class="search" action="/v1/search" method="post">
<label for="example-q">Search</label>
<div class="row"><input id="example-q" name="q" type="search" required value="${escapeHtml(EXAMPLE_QUERY)}" />
<label class="visually-hidden" for="example-namespace">Collection</label>
<select id="example-namespace" name="namespace"><option value="legislation">Legislation</option><option value="case_law">Case law</option><option value="doctrine">Doctrine</option></select>
<button type="submit">Search</button></div>
</form>
<div id="example-results" aria-live="polite"></div>`
    : '';
  return `<section aria-labelledby="try"><h2 id="try">Try a search</h2>${intro}${form}
<p>The same search from a terminal:</p><pre tabindex="0" aria-label="The example search as a curl command"><code>${escapeHtml(curl(view))}</code></pre></section>`;
}

/** The whole page. */
export function landingHtml(view: LandingView): string {
  const account = view.signedIn
    ? '<a class="button" href="/dashboard/">Go to your dashboard</a>'
    : '<a href="/dashboard/sign-in">Sign in</a> <a class="button" href="/dashboard/register">Create a free account</a>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Legal Search: EU case law, legislation and doctrine</title>
<meta name="description" content="Hybrid semantic and keyword search over EU legal data, by REST, GraphQL and MCP." />
<link rel="icon" href="data:," /><style>${STYLE}</style></head>
<body><header class="top"><a class="brand" href="/">Legal Search</a><nav aria-label="Account">${account}</nav></header>
<main>
<h1>Search EU case law, legislation and doctrine</h1>
<p class="lead">Hybrid semantic and keyword search over court decisions, acts and articles, and legal writing, with each source's licence on every hit. Fetch whole documents, resolve a loose citation such as <q>§ 826 BGB</q> to the exact provision, and give AI agents the same tools over MCP.</p>
<section aria-labelledby="coverage"><h2 id="coverage">What it covers</h2>${coverage(view.stats)}</section>
${exampleSearch(view)}
<section aria-labelledby="ways-in"><h2 id="ways-in">Ways in</h2><ul class="ways">
<li><a href="/openapi.json">REST API reference</a> (OpenAPI 3.1): search, documents, resolve, discovery, usage.</li>
<li><a href="/graphql">GraphQL explorer</a>: the same data and your account in one query.</li>
<li><a href="/dashboard/connect">Connect an AI agent</a> (MCP at <code>${escapeHtml(view.baseUrl)}/mcp</code>, with OAuth or an API key): set-up for Claude, Cursor and VS Code.</li>
<li><a href="/dashboard/">The dashboard</a>: API keys, usage, search, billing and your team.</li>
</ul></section>
</main>
<footer><a href="${escapeHtml(view.legal.terms)}">Terms of service</a> · <a href="${escapeHtml(view.legal.privacy)}">Privacy notice</a></footer>
${view.anonymousSearch ? '<script src="/landing-search.js" defer></script>' : ''}
</body></html>`;
}

// The dashboard's palette (src/dashboard/styles.css), inline so the page needs no second request.
const STYLE = `:root{--fg:#1c1917;--muted:#57534e;--bg:#f5f5f4;--card:#fff;--line:#d6d3d1;--accent:#1d4ed8;--focus:#b45309;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);background:var(--bg)}
*{box-sizing:border-box}body{margin:0}a{color:var(--accent)}:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.6rem 1rem;background:var(--card);border-bottom:1px solid var(--line)}
.brand{font-weight:700;color:var(--fg);text-decoration:none;margin-right:auto}.top nav{display:flex;gap:1rem;align-items:center}
.button{display:inline-block;background:var(--accent);color:#fff;padding:.4rem .8rem;border-radius:8px;text-decoration:none}
main{max-width:56rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.9rem;line-height:1.2;margin:.5rem 0}.lead{font-size:1.1rem}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:1rem 0}h2{font-size:1.2rem;margin:0 0 .5rem}
.figures{display:flex;flex-wrap:wrap;gap:1rem 2rem;font-size:1.1rem}.figures strong{font-size:1.5rem}.muted{color:var(--muted)}
.search .row{display:flex;flex-wrap:wrap;gap:.5rem}.search input{flex:1 1 14rem;min-width:0}input,select,button{font:inherit;padding:.4rem .5rem;border:1px solid #78716c;border-radius:6px}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
pre{background:#1c1917;color:#f5f5f4;padding:.75rem;border-radius:8px;overflow-x:auto}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
.hits{list-style:none;padding:0}.hits li{border-top:1px solid var(--line);padding:.5rem 0}.hit-meta{color:var(--muted);font-size:.9rem}
.error{color:#991b1b}footer{max-width:56rem;margin:0 auto;padding:1rem;color:var(--muted)}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;
