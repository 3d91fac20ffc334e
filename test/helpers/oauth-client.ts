/**
 * The OAuth side of an MCP client, as an agent implements it for the official SDK
 * (`OAuthClientProvider`): client registration, tokens and the PKCE verifier kept in memory,
 * and the authorization URL the SDK would open in a browser kept for the test to visit.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export class MemoryOAuthClient implements OAuthClientProvider {
  /** Where the SDK sent the user to authorize (set by `redirectToAuthorization`). */
  authorizationUrl: URL | null = null;
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier: string | undefined;

  constructor(
    private readonly options: {
      redirectUrl: string;
      clientName: string;
      /** What the client asks for at registration (the SDK then uses what the server answered). */
      tokenEndpointAuthMethod?: string;
      /** An https URL serving the client's metadata document: the SDK uses it as client_id, without registering. */
      clientMetadataUrl?: string;
    },
  ) {}

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.options.tokenEndpointAuthMethod ?? 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier saved');
    return this.verifier;
  }
}

/** The claims of a JWT (no verification: the test reads what the server put in it). */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}
