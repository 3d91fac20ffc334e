import { errors } from 'oidc-provider';
import { applyClientUriRules } from './client-uris.js';

/** The OAuth error code a registration with these redirect URIs gets, or the application type it is given. */
function outcome(redirect_uris: unknown, extra: Record<string, unknown> = {}): string {
  const metadata: Record<string, unknown> = { redirect_uris, ...extra };
  try {
    applyClientUriRules(metadata);
    return `accepted as ${String(metadata.application_type ?? 'web')}`;
  } catch (error) {
    if (!(error instanceof errors.InvalidClientMetadata)) throw error;
    return error.message;
  }
}

describe('the URIs a client may register', () => {
  it('accepts https, loopback http and private-use schemes; loopback and private-use make the client native', () => {
    expect(outcome(['https://claude.ai/api/mcp/auth_callback'])).toBe('accepted as web');
    expect(outcome(['https://agent.example/cb'], { application_type: 'web' })).toBe('accepted as web');
    for (const uri of ['http://127.0.0.1/cb', 'http://127.0.0.1:33418/', 'http://[::1]:8080/cb', 'http://localhost/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback', 'vscode://vscode.github-authentication/did-authenticate', 'com.example.app:/oauth2redirect']) {
      expect([uri, outcome([uri])]).toEqual([uri, 'accepted as native']);
    }
    expect(outcome(['https://agent.example/cb', 'http://127.0.0.1/cb'], { application_type: 'web' })).toBe('accepted as native');
  });

  it('refuses plain http to other hosts, forbidden schemes, fragments, unparsable URIs and control characters with invalid_redirect_uri', () => {
    for (const uri of ['http://agent.example/cb', 'http://127.0.0.2.nip.io/cb', 'http://192.168.1.4/cb', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'ws://127.0.0.1/cb', 'https://agent.example/cb#x', 'no scheme', 'https://agent.example/\r\ncb', 'http://127.0.0.1/cb\t', 'cursor://x/\u0085']) {
      expect([uri, outcome([uri])]).toEqual([uri, 'invalid_redirect_uri']);
    }
  });

  it('refuses control characters in the other URIs with invalid_client_metadata, and leaves non-string lists to oidc-provider', () => {
    expect(outcome(['https://agent.example/cb'], { client_uri: 'https://agent.example/\nx' })).toBe('invalid_client_metadata');
    expect(outcome(['https://agent.example/cb'], { logo_uri: 'https://agent.example/\u0000.png' })).toBe('invalid_client_metadata');
    expect(outcome('https://agent.example/cb')).toBe('accepted as web');
    expect(outcome([42])).toBe('accepted as web');
  });
});
