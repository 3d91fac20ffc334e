/**
 * Wires the accounts and usage modules from the configuration: the counter store (Redis when
 * REDIS_URL is set, in-process otherwise), usage counting, accounts, API keys, the mailer, the
 * identity providers and the authenticator every door uses.
 */
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { type CounterStore, MemoryCounterStore } from '../usage/counter-store.js';
import { OperationLimiter } from '../usage/operation-limits.js';
import { RedisCounterStore } from '../usage/redis-counter-store.js';
import { UsageRecorder } from '../usage/usage-recorder.js';
import { UsageService } from '../usage/usage.service.js';
import { AccountsService } from './accounts.service.js';
import { ApiKeyService } from './api-key.service.js';
import { Authenticator, type AccessTokenChecker } from './authenticator.js';
import { IdentityProviderService } from './identity-providers.js';
import { MailOutbox } from './mail-outbox.js';
import { createMailer, type Mailer } from './mailer.js';
import { OAuthGrantService } from './oauth-grants.service.js';
import { resolveSessionSecret, TokenSigner } from './tokens.js';

export interface AccountsModule {
  accounts: AccountsService;
  apiKeys: ApiKeyService;
  /** The OAuth clients (MCP agents) each user authorised, and revoking them. */
  oauthGrants: OAuthGrantService;
  usage: UsageService;
  identityProviders: IdentityProviderService;
  authenticator: Authenticator;
  /** Signs the accounts' tokens; derives keys for the authorization server (`derivedKey`). */
  tokens: TokenSigner;
  counters: CounterStore;
  /** The per-caller operation limits (operation-limits.ts) over `counters`: team, billing and admin services count through it. */
  limits: OperationLimiter;
  /** The Redis connection of REDIS_URL (shared state of several processes), or null. */
  redis: Redis | null;
  /** Outgoing mail (teams sends its invites through it). */
  mailer: Mailer;
  /** Mail sent after the answer (password reset, what a proof ended); `drain()` waits for it. */
  outbox: MailOutbox;
  close(): Promise<void>;
}

/**
 * Builds the accounts and usage services over an ORM (the database must be migrated).
 * `accessTokens` makes the authenticator accept the authorization server's access tokens.
 */
export async function createAccountsModule(
  config: Config,
  orm: MikroORM,
  logger: Logger,
  options: { accessTokens?: AccessTokenChecker } = {},
): Promise<AccountsModule> {
  const settings = config.accounts;
  let counters: CounterStore;
  let redis: Redis | null = null;
  if (settings.redisUrl) {
    redis = connectRedis(settings.redisUrl, settings.redisCommandTimeoutMs, logger);
    await redis.connect();
    counters = new RedisCounterStore(redis, undefined, settings.redisCommandTimeoutMs);
  } else {
    counters = new MemoryCounterStore();
  }
  const recorder = new UsageRecorder(orm, logger, { spillDir: path.join(config.dataDir, 'usage-spill'), maxMemoryRows: settings.usageMemoryMaxRows });
  await recorder.start();
  const usage = new UsageService({
    orm,
    store: counters,
    recorder,
    settings: { allowAnonymous: settings.allowAnonymous, rateLimits: settings.rateLimits },
  });
  const mailer: Mailer = createMailer({ smtpUrl: settings.smtpUrl, from: settings.mailFrom, logger, logContents: settings.mailLog });
  const outbox = new MailOutbox({ mailer, logger, maxPending: settings.mailOutboxMaxPending });
  const tokens = new TokenSigner(resolveSessionSecret(settings.sessionSecret, config.dataDir));
  const accounts = new AccountsService({
    orm,
    tokens,
    mailer,
    outbox,
    counters,
    usage,
    logger,
    settings: {
      adminEmails: settings.adminEmails,
      termsVersion: settings.termsVersion,
      devLogin: settings.devLogin,
      baseUrl: config.baseUrl,
      signInThrottle: settings.signInThrottle,
    },
  });
  const apiKeys = new ApiKeyService({ orm, accounts, counters, logger });
  const oauthGrants = new OAuthGrantService({ orm });
  const identityProviders = new IdentityProviderService({ accounts, tokens, providers: settings.identityProviders, baseUrl: config.baseUrl });
  const authenticator = new Authenticator({ accounts, apiKeys, accessTokens: options.accessTokens });
  if (!settings.rateLimits) logger.info('usage: RATE_LIMITS=off: requests are counted but never limited');
  if (settings.allowAnonymous) logger.info('usage: ALLOW_ANONYMOUS=true: callers without credentials use the Anonymous plan');
  return {
    accounts,
    apiKeys,
    oauthGrants,
    usage,
    identityProviders,
    authenticator,
    tokens,
    counters,
    limits: new OperationLimiter(counters),
    redis,
    mailer,
    outbox,
    async close() {
      await recorder.close();
      // mail queued by the last requests goes out before the database and the transport close
      await outbox.drain();
      await counters.close();
      mailer.close();
    },
  };
}

/**
 * The Redis client of REDIS_URL, bounded (issue #33 item 4): nothing is queued while the
 * connection is down (a stopped server fails the command at once instead of after the reconnect
 * attempts), and the client keeps reconnecting meanwhile. The counters bound each call by
 * REDIS_COMMAND_TIMEOUT_MS themselves (redis-counter-store.ts: 503); the client's own
 * `commandTimeout`, a few times longer, drops commands a frozen server never answers (and bounds
 * the other users of this client, the credit balances).
 * One log line when the connection is lost and one when it is back, not one per failed command.
 */
function connectRedis(url: string, commandTimeoutMs: number, logger: Logger): Redis {
  const redis = new Redis(url, { lazyConnect: true, commandTimeout: Math.max(4 * commandTimeoutMs, 1000), maxRetriesPerRequest: 0, enableOfflineQueue: false });
  let lost = false;
  redis.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    logger.warn(`redis: ${error.message}; billable requests answer 503 until it is back`);
  });
  redis.on('ready', () => {
    if (lost) logger.info('redis: connected again');
    lost = false;
  });
  return redis;
}
