/**
 * The rules of the consent step of the authorization server (the doors in oauth.routes.ts only
 * translate HTTP): what the page shows, signing in with e-mail and password (the legal terms
 * accepted on the way when needed), approving as an account already signed in, and denying.
 * Approving finishes oidc-provider's interaction with the account and a grant of the MCP scope
 * on the requested resource(s); oidc-provider then redirects the browser to the client with the
 * authorization code.
 */
import type { Interaction } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { isAccount, type RequestContext } from '../context.js';
import { DomainError } from '../errors.js';
import type { AccountsService, SignInResult } from '../modules/accounts/accounts.service.js';
import { parseInput } from '../validation.js';
import { INTERACTION_PATH, PASSWORD_AUTHORIZE_PATH } from './authorization-server.js';
import type { ConsentView } from './consent-page.js';
import { approveSchema, passwordAuthorizeSchema } from './consent.schema.js';
import { browserHash, McpFlowCodec, type PendingAuthorization } from './mcp-flow.js';
import { MCP_SCOPE } from './protected-resource.js';

export type PasswordAuthorizeResult =
  | { kind: 'authorized'; redirect_url: string }
  | { kind: 'legal_acceptance_required'; terms_version: string };

/** What each scope lets the client do, as the consent page says it. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  [MCP_SCOPE]: 'call the legal search tools (search, documents, citations, discovery, issue reports) on your behalf; every call counts toward your plan',
  offline_access: 'stay connected: renew its access without asking you again, for up to 30 days',
};

export interface ConsentServiceDeps {
  provider: Provider;
  accounts: Pick<AccountsService, 'login' | 'acceptLegal' | 'authenticateUser'>;
  flows: McpFlowCodec;
  termsVersion: string;
  identityProviders: () => string[];
  baseUrl: string;
}

export class ConsentService {
  constructor(private readonly deps: ConsentServiceDeps) {}

  /** The pending interaction of a uid, or a 400 saying it expired. */
  async interaction(uid: string): Promise<Interaction> {
    const interaction = /^[A-Za-z0-9_-]{1,64}$/.test(uid) ? await this.deps.provider.Interaction.find(uid) : undefined;
    if (!interaction) throw expired();
    return interaction;
  }

  /**
   * The consent page's model for `interaction`, in the browser identified by its binding cookie.
   * `legalPending` is set when an identity-provider sign-in still needs the terms accepted.
   */
  async view(
    ctx: RequestContext,
    interaction: Interaction,
    options: { browser: string; legalPending?: boolean; termsRequired?: boolean; error?: string; email?: string },
  ): Promise<ConsentView> {
    const params = requested(interaction);
    const client = await this.deps.provider.Client.find(params.client_id);
    if (!client) throw new DomainError('bad_request', 'The client of this authorization request no longer exists');
    const flow: PendingAuthorization = { uid: interaction.uid, ...params, browser: browserHash(options.browser), exp: interaction.exp };
    const account = options.legalPending ? { email: null } : await this.signedInAccount(ctx, interaction);
    return {
      client: { id: client.clientId, name: client.clientName ?? null, uri: client.clientUri ?? null },
      redirectUri: params.redirect_uri,
      scopes: scopesOf(params.scope),
      resources: params.resource,
      mcpFlow: this.deps.flows.encode(flow),
      account: account ? { email: account.email } : null,
      termsVersion: options.legalPending || options.termsRequired ? this.deps.termsVersion : null,
      identityProviders: this.deps.identityProviders(),
      actions: this.actions(interaction.uid),
      error: options.error,
      email: options.email,
    };
  }

  /**
   * Signs in with e-mail and password and approves the pending authorization carried by
   * `mcp_flow`; answers the URL to send the browser to. An account that has not accepted the
   * current terms must send accept_terms and acknowledge_privacy (the answer says so otherwise).
   */
  async passwordAuthorize(ctx: RequestContext, input: unknown, browserCookie: string | null): Promise<PasswordAuthorizeResult> {
    const body = parseInput(passwordAuthorizeSchema, input);
    const interaction = await this.pendingFromFlow(body.mcp_flow, browserCookie);
    let signIn: SignInResult = await this.deps.accounts.login(ctx, { email: body.email, password: body.password });
    if (signIn.kind === 'legal_acceptance_required') {
      if (!body.accept_terms || !body.acknowledge_privacy) return { kind: 'legal_acceptance_required', terms_version: signIn.terms_version };
      signIn = await this.deps.accounts.acceptLegal(ctx, {
        legal_acceptance_token: signIn.legal_acceptance_token,
        accept_terms: true,
        acknowledge_privacy: true,
      });
    }
    if (signIn.kind !== 'session') throw new DomainError('forbidden', 'The terms of service must be accepted first');
    return { kind: 'authorized', redirect_url: await this.finish(interaction, signIn.user.id) };
  }

  /**
   * Approves as the account this browser is signed in with: the one an identity provider just
   * signed in (accepting the terms on the way when `legalToken` is given), the dashboard session,
   * or the authorization server's own recent sign-in. Answers the URL to send the browser to.
   */
  async approve(ctx: RequestContext, interaction: Interaction, input: unknown, legalToken: string | null): Promise<string> {
    if (legalToken) {
      const body = parseInput(approveSchema, input ?? {});
      const accepted = await this.deps.accounts.acceptLegal(ctx, { legal_acceptance_token: legalToken, ...body });
      if (accepted.kind !== 'session') throw new DomainError('forbidden', 'The terms of service must be accepted first');
      return this.finish(interaction, accepted.user.id);
    }
    const account = await this.signedInAccount(ctx, interaction);
    if (!account) throw new DomainError('unauthorized', 'Not signed in: sign in with your e-mail and password or an identity provider');
    return this.finish(interaction, account.userId);
  }

  /** Denies the pending authorization: the client receives `access_denied`. */
  async deny(interaction: Interaction): Promise<string> {
    interaction.result = { error: 'access_denied', error_description: 'The user denied the authorization request' };
    await interaction.save(remainingSeconds(interaction));
    return interaction.returnTo;
  }

  /** Where the consent page's forms go (absolute URLs under BASE_URL). */
  private actions(uid: string): ConsentView['actions'] {
    const page = `${this.deps.baseUrl}${INTERACTION_PATH}/${uid}`;
    return {
      passwordAuthorize: `${this.deps.baseUrl}${PASSWORD_AUTHORIZE_PATH}`,
      approve: `${page}/approve`,
      deny: `${page}/deny`,
      identityProvider: (name) => `${page}/login/${name}`,
      // the dashboard's registration, which signs in and brings the browser back here
      register: `${this.deps.baseUrl}/dashboard/register?return_to=${encodeURIComponent(new URL(page).pathname)}`,
    };
  }

  /** The interaction a signed `mcp_flow` names (to show its page again); no browser check. */
  async interactionOfFlow(mcpFlow: string): Promise<Interaction> {
    return this.interaction(this.decodeFlow(mcpFlow).uid);
  }

  /** The pending authorization a signed `mcp_flow` carries, or a 400 saying it is altered or expired. */
  private decodeFlow(mcpFlow: string): PendingAuthorization {
    const check = this.deps.flows.decode(mcpFlow);
    if (!check.ok) throw check.reason === 'expired' ? expired() : invalidFlow();
    return check.flow;
  }

  /** The interaction an `mcp_flow` names, once its signature, expiry, browser and parameters check out. */
  private async pendingFromFlow(mcpFlow: string, browserCookie: string | null): Promise<Interaction> {
    const flow = this.decodeFlow(mcpFlow);
    if (!browserCookie || browserHash(browserCookie) !== flow.browser) {
      throw new DomainError('forbidden', 'mcp_flow was issued to another browser: submit the form of the authorization page you opened');
    }
    const interaction = await this.interaction(flow.uid);
    const params = requested(interaction);
    const same =
      params.client_id === flow.client_id &&
      params.redirect_uri === flow.redirect_uri &&
      params.scope === flow.scope &&
      params.resource.join(' ') === flow.resource.join(' ');
    if (!same) throw new DomainError('bad_request', 'mcp_flow does not match the pending authorization request');
    return interaction;
  }

  /** The account signed in in this browser: the dashboard session, else the authorization server's sign-in. */
  private async signedInAccount(ctx: RequestContext, interaction: Interaction): Promise<{ userId: string; email: string } | null> {
    if (isAccount(ctx.caller) && ctx.caller.kind === 'user') return { userId: ctx.caller.userId, email: ctx.caller.email };
    const accountId = interaction.session?.accountId;
    if (!accountId) return null;
    const session = await this.deps.provider.Session.findByUid(interaction.session!.uid);
    if (!session || session.accountId !== accountId) return null;
    // a password reset since that sign-in ends it, as it ends dashboard sessions
    const caller = await this.deps.accounts.authenticateUser(accountId, (session.loginTs ?? 0) * 1000, { kind: 'user', ip: ctx.caller.ip, keyId: null });
    return caller ? { userId: caller.userId, email: caller.email } : null;
  }

  /** Finishes the interaction: signed in as `accountId`, MCP scope granted on the requested resource(s). */
  private async finish(interaction: Interaction, accountId: string): Promise<string> {
    const { provider } = this.deps;
    const params = requested(interaction);
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = existing && existing.accountId === accountId ? existing : new provider.Grant({ accountId, clientId: params.client_id });
    for (const resource of params.resource) grant.addResourceScope(resource, MCP_SCOPE);
    if (params.scope.split(' ').includes('offline_access')) grant.addOIDCScope('offline_access');
    const grantId = await grant.save();
    interaction.result = { login: { accountId }, consent: { grantId } };
    await interaction.save(remainingSeconds(interaction));
    return interaction.returnTo;
  }
}

/** The parameters of the authorization request an interaction is about. */
function requested(interaction: Interaction): Omit<PendingAuthorization, 'uid' | 'browser' | 'exp'> {
  const params = interaction.params as Record<string, unknown>;
  const resource = params.resource;
  return {
    client_id: String(params.client_id ?? ''),
    redirect_uri: String(params.redirect_uri ?? ''),
    scope: String(params.scope ?? ''),
    resource: Array.isArray(resource) ? resource.map(String) : resource ? [String(resource)] : [],
  };
}

function scopesOf(scope: string): ConsentView['scopes'] {
  return [...new Set(scope.split(' ').filter(Boolean))].map((name) => ({
    name,
    description: SCOPE_DESCRIPTIONS[name] ?? 'a permission this server does not define',
    granted: name in SCOPE_DESCRIPTIONS,
  }));
}

function remainingSeconds(interaction: Interaction): number {
  return Math.max(1, interaction.exp - Math.floor(Date.now() / 1000));
}

function invalidFlow(): DomainError {
  return new DomainError('bad_request', 'mcp_flow is not valid (altered or truncated): reload the authorization page and submit its form');
}

function expired(): DomainError {
  return new DomainError('bad_request', 'This authorization request expired or is unknown: start again from your application');
}
