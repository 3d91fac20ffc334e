/**
 * The registry of subgraphs that make up the supergraph. A subgraph is built from the
 * service facades it needs; composition only needs its schema, so `schemaOnlyServices()`
 * gives facades that are never called (no database or index required).
 */
import type { GraphQLSchema } from 'graphql';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { buildLegalDataSubgraph } from '../../subgraphs/legal-data/index.js';
import { buildAccountsSubgraph } from '../../subgraphs/accounts/index.js';
import type { AccountsGraphqlApi } from '../../subgraphs/accounts/accounts.resolver.js';
import { buildBillingSubgraph } from '../../subgraphs/billing/index.js';
import type { BillingGraphqlApi } from '../../subgraphs/billing/billing.resolver.js';
import { buildTeamsSubgraph } from '../../subgraphs/teams/index.js';
import type { TeamsGraphqlApi } from '../../subgraphs/teams/teams.resolver.js';
import { buildAdminSubgraph } from '../../subgraphs/admin/index.js';
import type { AdminGraphqlApi } from '../../subgraphs/admin/admin.resolver.js';
import type { AnalyticsGraphqlApi } from '../../subgraphs/admin/analytics.resolver.js';
import type { SubgraphBuildOptions } from './federation.js';

/** The service facades subgraph resolvers call. */
export interface GraphqlServices {
  legalData: LegalDataApi;
  accounts: AccountsGraphqlApi;
  /** Optional for small test apps: the billing subgraph is still composed, its resolvers then throw. */
  billing?: BillingGraphqlApi;
  /** Optional for small test apps, as billing. */
  teams?: TeamsGraphqlApi;
  /** Optional for small test apps: the admin subgraph is still composed, its resolvers then throw. */
  admin?: AdminGraphqlApi & AnalyticsGraphqlApi;
}

export interface SubgraphDefinition {
  name: string;
  build(services: GraphqlServices, options?: SubgraphBuildOptions): Promise<GraphQLSchema>;
}

export interface BuiltSubgraph {
  name: string;
  schema: GraphQLSchema;
}

export const SUBGRAPHS: readonly SubgraphDefinition[] = [
  { name: 'legal-data', build: (services, options) => buildLegalDataSubgraph(services.legalData, options) },
  { name: 'accounts', build: (services, options) => buildAccountsSubgraph(services.accounts, options) },
  { name: 'billing', build: (services, options) => buildBillingSubgraph(services.billing ?? uncallableBilling(), options) },
  { name: 'teams', build: (services, options) => buildTeamsSubgraph(services.teams ?? uncallableTeams(), options) },
  { name: 'admin', build: (services, options) => buildAdminSubgraph(services.admin ?? uncallableAdmin(), options) },
];

export async function buildSubgraphs(
  services: GraphqlServices,
  options: SubgraphBuildOptions = {},
): Promise<BuiltSubgraph[]> {
  const built: BuiltSubgraph[] = [];
  // One at a time: type-graphql keeps its build settings in static state while a schema builds.
  for (const subgraph of SUBGRAPHS) built.push({ name: subgraph.name, schema: await subgraph.build(services, options) });
  return built;
}

/** Service facades for schema-only work (composition): any call throws. */
export function schemaOnlyServices(): GraphqlServices {
  return {
    legalData: uncallable<LegalDataApi>('legalData'),
    accounts: {
      accounts: uncallable<AccountsGraphqlApi['accounts']>('accounts'),
      apiKeys: uncallable<AccountsGraphqlApi['apiKeys']>('apiKeys'),
      oauthGrants: uncallable<AccountsGraphqlApi['oauthGrants']>('oauthGrants'),
      usage: uncallable<AccountsGraphqlApi['usage']>('usage'),
    },
    billing: uncallableBilling(),
    teams: uncallableTeams(),
    admin: uncallableAdmin(),
  };
}

function uncallableBilling(): BillingGraphqlApi {
  return {
    checkout: uncallable<BillingGraphqlApi['checkout']>('billing.checkout'),
    promo: uncallable<BillingGraphqlApi['promo']>('billing.promo'),
    credits: uncallable<BillingGraphqlApi['credits']>('billing.credits'),
    autoTopup: uncallable<BillingGraphqlApi['autoTopup']>('billing.autoTopup'),
    subscriptions: uncallable<BillingGraphqlApi['subscriptions']>('billing.subscriptions'),
  };
}

function uncallableTeams(): TeamsGraphqlApi {
  return {
    views: uncallable<TeamsGraphqlApi['views']>('teams.views'),
    invites: uncallable<TeamsGraphqlApi['invites']>('teams.invites'),
    domains: uncallable<TeamsGraphqlApi['domains']>('teams.domains'),
    membership: uncallable<TeamsGraphqlApi['membership']>('teams.membership'),
  };
}

function uncallableAdmin(): AdminGraphqlApi & AnalyticsGraphqlApi {
  return {
    audit: uncallable<AdminGraphqlApi['audit']>('admin.audit'),
    users: uncallable<AdminGraphqlApi['users']>('admin.users'),
    overrides: uncallable<AdminGraphqlApi['overrides']>('admin.overrides'),
    erasure: uncallable<AdminGraphqlApi['erasure']>('admin.erasure'),
    feedback: uncallable<AdminGraphqlApi['feedback']>('admin.feedback'),
    analytics: uncallable<AnalyticsGraphqlApi['analytics']>('admin.analytics'),
    partners: uncallable<AnalyticsGraphqlApi['partners']>('admin.partners'),
  };
}

function uncallable<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (typeof property !== 'string' || property === 'then') return undefined;
      return () => {
        throw new Error(`${name}.${property}() called on a schema-only service facade`);
      };
    },
  });
}
