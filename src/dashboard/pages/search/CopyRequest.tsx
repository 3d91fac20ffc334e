/** "Use this search in code": the exact request of the results on screen, as curl or as the JSON body (request-copy.ts). */
import { Link } from 'react-router';
import { publicOrigin } from '../../app/config';
import { CopyButton } from '../../components/CopyButton';
import type { SearchInput } from '../../gql/graphql';
import { searchCurl, searchJson } from './request-copy';

export function CopyRequest({ input }: { input: SearchInput }) {
  const curl = searchCurl(publicOrigin(), input);
  const json = searchJson(input);
  return (
    <details className="card copy-request">
      <summary>Use this search in code (curl or JSON)</summary>
      <p className="hint">
        The same search through the REST API, <code>POST /v1/search</code>. Put one of your <Link to="/keys">API keys</Link> in <code>API_KEY</code> first; it is not shown here.
      </p>
      <div className="snippet-head">
        <h3 id="copy-curl-title">curl</h3>
        <CopyButton text={curl} label="Copy as curl" />
      </div>
      <pre className="code" aria-label="The search as a curl command" data-testid="search-curl" tabIndex={0}>
        {curl}
      </pre>
      <div className="snippet-head">
        <h3 id="copy-json-title">JSON body</h3>
        <CopyButton text={json} label="Copy as JSON" />
      </div>
      <pre className="code" aria-label="The search as a JSON body" data-testid="search-json" tabIndex={0}>
        {json}
      </pre>
    </details>
  );
}
