/**
 * Wires the OAuth 2.1 authorization server: oidc-provider over the database and the persisted
 * signing key, and the consent service over the accounts. Keys for its cookies and for the
 * consent page's signed flow are derived from SESSION_SECRET. A logout at /auth/logout ends the
 * authorization server's sign-ins of the account as well.
 */
import type { MikroORM } from '@mikro-orm/core';
import type Provider from 'oidc-provider';
import type { Logger } from '../logger.js';
import type { AccountsModule } from '../modules/accounts/accounts.module.js';
import { createAuthorizationServer } from './authorization-server.js';
import { ConsentService } from './consent.service.js';
import { McpFlowCodec } from './mcp-flow.js';
import { endAccountSessions } from './oidc-adapter.js';
import type { SigningKey } from './signing-key.js';

export interface OAuthModule {
  provider: Provider;
  consent: ConsentService;
}

/** The authorization server and its consent service, over the accounts module and the database. */
export function createOAuthModule(deps: {
  baseUrl: string;
  termsVersion: string;
  orm: MikroORM;
  signingKey: SigningKey;
  accounts: AccountsModule;
  logger: Logger;
  /** OAUTH_CLIENT_METADATA_ALLOW_PRIVATE (tests): client metadata documents may come from private addresses. */
  clientMetadataAllowPrivate?: boolean;
}): OAuthModule {
  const { baseUrl, accounts } = deps;
  const provider = createAuthorizationServer({
    baseUrl,
    orm: deps.orm,
    signingKey: deps.signingKey,
    cookieKey: accounts.tokens.derivedKey('oauth-cookies'),
    accounts: accounts.accounts,
    logger: deps.logger,
    clientMetadataAllowPrivate: deps.clientMetadataAllowPrivate ?? false,
  });
  const consent = new ConsentService({
    provider,
    accounts: accounts.accounts,
    flows: new McpFlowCodec(accounts.tokens.derivedKey('mcp-flow')),
    termsVersion: deps.termsVersion,
    identityProviders: () => accounts.identityProviders.configured(),
    baseUrl,
  });
  // A logout ends the authorization server's sign-ins of the account too: its consent page would
  // otherwise still approve clients "as" the account, without a password, for up to an hour.
  accounts.accounts.sessions.onSignOut((userId) => endAccountSessions(deps.orm, userId));
  return { provider, consent };
}
