/**
 * Sign-in with GitHub, Google and Microsoft (authorization code flow with state and PKCE, through
 * openid-client). Google and Microsoft are OpenID providers (discovery from the issuer; the
 * e-mail and its verification from the ID token: Google's `email_verified` (or userinfo),
 * Microsoft's `xms_edov`); GitHub is plain OAuth 2 (the e-mail comes from its API, primary and
 * verified). Every URL is configuration, so the tests run the
 * whole flow against a local OpenID provider.
 */
import * as oidc from 'openid-client';
import type { IdentityProviderName, IdentityProviderSetting } from '../../config.js';
import type { RequestContext } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import type { AccountsService, ProviderIdentity, SignInResult } from './accounts.service.js';
import type { TokenSigner } from './tokens.js';

export const OAUTH_STATE_TTL_SECONDS = 600;

interface ProviderDefaults {
  issuer?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  emailsUrl?: string;
  scope: string;
  oidc: boolean;
}

const DEFAULTS: Record<IdentityProviderName, ProviderDefaults> = {
  github: {
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userinfoUrl: 'https://api.github.com/user',
    emailsUrl: 'https://api.github.com/user/emails',
    scope: 'read:user user:email',
    oidc: false,
  },
  google: { issuer: 'https://accounts.google.com', scope: 'openid email profile', oidc: true },
  microsoft: { issuer: 'https://login.microsoftonline.com/common/v2.0', scope: 'openid email profile', oidc: true },
};

/** Where to send the browser, and the signed state cookie to set on the way. */
export interface AuthorizationStart {
  url: string;
  stateCookie: string;
}

/** A finished provider sign-in, and where the browser goes next when the sign-in was started for it. */
export interface ProviderSignIn {
  signIn: SignInResult;
  /** The page that started the sign-in (the OAuth consent page), or null for a dashboard sign-in. */
  returnTo: string | null;
}

export class IdentityProviderService {
  private readonly configurations = new Map<IdentityProviderName, Promise<oidc.Configuration>>();

  constructor(
    private readonly deps: {
      accounts: AccountsService;
      tokens?: TokenSigner;
      providers: Partial<Record<IdentityProviderName, IdentityProviderSetting>>;
      baseUrl: string;
    },
  ) {}

  /** Names of the configured providers. */
  configured(): IdentityProviderName[] {
    return Object.keys(this.deps.providers) as IdentityProviderName[];
  }

  redirectUri(name: IdentityProviderName): string {
    return `${this.deps.baseUrl}/auth/${name}/callback`;
  }

  /**
   * The provider's authorization URL with a fresh state and PKCE challenge. `returnTo` (an OAuth
   * consent page of this service) is where the callback sends the browser after signing in.
   */
  async start(_ctx: RequestContext, name: IdentityProviderName, options: { returnTo?: string } = {}): Promise<AuthorizationStart> {
    const returnTo = options.returnTo ?? '';
    if (returnTo && !returnTo.startsWith(`${this.deps.baseUrl}/oauth/interaction/`)) {
      throw new DomainError('bad_request', 'A provider sign-in can only return to an authorization page of this service');
    }
    const config = await this.configuration(name);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = DEFAULTS[name].oidc ? oidc.randomNonce() : '';
    const params: Record<string, string> = {
      redirect_uri: this.redirectUri(name),
      scope: DEFAULTS[name].scope,
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    if (nonce) params.nonce = nonce;
    const url = oidc.buildAuthorizationUrl(config, params);
    const stateCookie = await this.tokens().signData('oauth_state', { provider: name, state, verifier, nonce, return_to: returnTo }, OAUTH_STATE_TTL_SECONDS);
    return { url: url.href, stateCookie };
  }

  /** Checks state, exchanges the code, reads the verified e-mail and signs in (or creates the account). */
  async callback(ctx: RequestContext, name: IdentityProviderName, callbackUrl: string, stateCookie: string | undefined): Promise<ProviderSignIn> {
    const config = await this.configuration(name);
    const saved = stateCookie ? await this.tokens().verifyData('oauth_state', stateCookie) : null;
    if (!saved || saved.provider !== name) throw new DomainError('bad_request', 'Sign-in expired or was started elsewhere; start again');
    const current = new URL(callbackUrl);
    // the provider redirected to redirectUri(); compare against it, not against how we were reached
    const expected = new URL(this.redirectUri(name));
    expected.search = current.search;
    let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
    try {
      tokens = await oidc.authorizationCodeGrant(config, expected, {
        pkceCodeVerifier: saved.verifier,
        expectedState: saved.state,
        ...(saved.nonce ? { expectedNonce: saved.nonce } : {}),
        idTokenExpected: DEFAULTS[name].oidc,
      });
    } catch (error) {
      throw new DomainError('bad_request', `Sign-in with ${name} failed: ${(error as Error).message}`);
    }
    const identity = DEFAULTS[name].oidc
      ? await this.openIdIdentity(name, config, tokens)
      : await this.githubIdentity(name, config, tokens.access_token);
    return { signIn: await this.deps.accounts.signInWithProvider(ctx, identity), returnTo: saved.return_to || null };
  }

  /**
   * The identity in an OpenID provider's ID token (Google; the userinfo endpoint when the token
   * lacks the e-mail or its verification). Microsoft is read by its own rule (microsoftIdentity).
   */
  private async openIdIdentity(name: IdentityProviderName, config: oidc.Configuration, tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers) {
    const claims = tokens.claims();
    if (!claims) throw new DomainError('bad_request', `${name} returned no ID token`);
    if (name === 'microsoft') return microsoftIdentity(claims);
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified === true;
    let displayName = typeof claims.name === 'string' ? claims.name : null;
    if (!email || !verified) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = typeof info.email === 'string' ? info.email : email;
      verified = info.email_verified === true;
      displayName ??= typeof info.name === 'string' ? info.name : null;
    }
    if (!email) throw new DomainError('forbidden', `Your ${name} account has no email address`);
    return { provider: name, subject: claims.sub, email, emailVerified: verified, name: displayName };
  }

  /** GitHub: /user for the id, the primary verified address from /user/emails (or a verified userinfo e-mail). */
  private async githubIdentity(name: IdentityProviderName, config: oidc.Configuration, accessToken: string) {
    const setting = this.deps.providers[name]!;
    const userUrl = setting.userinfoUrl ?? DEFAULTS[name].userinfoUrl!;
    const user = (await (await oidc.fetchProtectedResource(config, accessToken, new URL(userUrl), 'GET')).json()) as Record<string, unknown>;
    const subject = String(user.id ?? user.sub ?? '');
    if (!subject) throw new DomainError('bad_request', `${name} returned no user id`);
    let email: string | undefined;
    let verified = false;
    if (typeof user.email === 'string' && user.email_verified === true) {
      email = user.email;
      verified = true;
    } else {
      // GitHub serves the addresses next to the user: https://api.github.com/user/emails
      const emailsUrl = setting.userinfoUrl ? `${setting.userinfoUrl.replace(/\/+$/, '')}/emails` : DEFAULTS[name].emailsUrl!;
      const emails = (await (await oidc.fetchProtectedResource(config, accessToken, new URL(emailsUrl), 'GET')).json()) as {
        email: string;
        primary: boolean;
        verified: boolean;
      }[];
      const primary = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
      email = primary?.email;
      verified = Boolean(primary);
    }
    if (!email) throw new DomainError('forbidden', `Your ${name} account has no verified email address`);
    const displayName = typeof user.name === 'string' ? user.name : typeof user.login === 'string' ? user.login : null;
    return { provider: name, subject, email, emailVerified: verified, name: displayName };
  }

  private tokens(): TokenSigner {
    if (!this.deps.tokens) throw new Error('IdentityProviderService needs a TokenSigner');
    return this.deps.tokens;
  }

  private configuration(name: IdentityProviderName): Promise<oidc.Configuration> {
    const setting = this.deps.providers[name];
    if (!setting) throw new NotFoundError(`Sign-in with ${name} is not configured`);
    let config = this.configurations.get(name);
    if (!config) {
      config = this.discover(name, setting);
      config.catch(() => this.configurations.delete(name));
      this.configurations.set(name, config);
    }
    return config;
  }

  private async discover(name: IdentityProviderName, setting: IdentityProviderSetting): Promise<oidc.Configuration> {
    const defaults = DEFAULTS[name];
    const insecure = (url: string | undefined) => url?.startsWith('http://') ?? false;
    const issuer = setting.issuer ?? (setting.authorizationUrl ? undefined : defaults.issuer);
    const auth = oidc.ClientSecretPost(setting.clientSecret);
    if (issuer && !setting.authorizationUrl) {
      return oidc.discovery(new URL(issuer), setting.clientId, undefined, auth, insecure(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined);
    }
    const metadata: oidc.ServerMetadata = {
      issuer: issuer ?? new URL(setting.authorizationUrl ?? defaults.authorizationUrl!).origin,
      authorization_endpoint: setting.authorizationUrl ?? defaults.authorizationUrl,
      token_endpoint: setting.tokenUrl ?? defaults.tokenUrl,
      userinfo_endpoint: setting.userinfoUrl ?? defaults.userinfoUrl,
    };
    const config = new oidc.Configuration(metadata, setting.clientId, undefined, auth);
    if (insecure(metadata.token_endpoint)) oidc.allowInsecureRequests(config);
    return config;
  }
}

/**
 * Microsoft Entra ID tokens carry no `email_verified`, and their `email` claim is any address an
 * administrator (or, for guests, the user) typed in: Microsoft's documented test of ownership is
 * the optional claim `xms_edov` ("email domain owner verified"): true when the address's domain is
 * a verified domain of the user's tenant, or the account is a Microsoft account, a Google account
 * or signed in with an e-mail one-time passcode. The app registration must request the optional
 * ID-token claims `email` and `xms_edov` (Token configuration); without `xms_edov` an address
 * counts as unverified, so it never links to an existing account. `email_verified`, should a token
 * carry it, is ignored: it is not Microsoft's statement. The userinfo endpoint does not carry
 * `xms_edov` either, so only the ID token is read.
 */
export function microsoftIdentity(claims: oidc.IDToken): ProviderIdentity {
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  if (!email) throw new DomainError('forbidden', 'Your microsoft account has no email address (the app registration must request the optional claim email)');
  const edov = claims.xms_edov;
  const verified = edov === true || edov === 1 || edov === 'true' || edov === '1';
  return { provider: 'microsoft', subject: claims.sub, email, emailVerified: verified, name: typeof claims.name === 'string' ? claims.name : null };
}
