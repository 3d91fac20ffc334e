/**
 * Who may read which analytics (issue #35 item 2): administrators everything, a partner the
 * sources and countries of its scope, anyone else nothing (403). Asking outside one's scope is
 * refused (403), never answered empty.
 */
import type { EntityManager } from '@mikro-orm/core';
import { type RequestContext, requireAccount } from '../../context.js';
import { DomainError } from '../../errors.js';
import { AnalyticsPartnerEntity } from './analytics.entities.js';

/** What the caller may read: everything, or a partner's scope. */
export type AnalyticsScope = { all: true } | { all: false; sources: ReadonlySet<string>; countries: ReadonlySet<string> };

/** The caller's scope: 401 without credentials, 403 for an account that is neither administrator nor partner. */
export async function analyticsScopeOf(ctx: RequestContext, em: EntityManager = ctx.em): Promise<AnalyticsScope> {
  const caller = requireAccount(ctx);
  if (caller.isAdmin) return { all: true };
  const partner = await em.findOne(AnalyticsPartnerEntity, { user_id: caller.userId });
  if (!partner) throw new DomainError('forbidden', 'Partners and administrators only');
  return { all: false, sources: new Set(partner.sources), countries: new Set(partner.countries) };
}

/** 403 unless every named source and country is in the scope. */
export function requireInScope(scope: AnalyticsScope, wanted: { sources?: readonly string[]; countries?: readonly string[] }): void {
  if (scope.all) return;
  const sources = (wanted.sources ?? []).filter((s) => !scope.sources.has(s));
  const countries = (wanted.countries ?? []).filter((c) => !scope.countries.has(c));
  if (sources.length + countries.length === 0) return;
  const named = [...sources.map((s) => `source ${s}`), ...countries.map((c) => `country ${c}`)].join(', ');
  throw new DomainError('forbidden', `Outside your partner scope: ${named}`);
}
