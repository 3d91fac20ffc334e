/**
 * May the signed-in account read partner analytics, and which scope? Administrators read
 * everything; anyone else reads its own `partnerScope` (null: not a partner). The scope is the
 * caller's own record and costs no analytics-limit unit; it is asked once per account and page
 * load, only for accounts that are not administrators.
 */
import { useEffect, useState } from 'react';
import { request } from '../api/client';
import { ApiError } from '../api/errors';
import { PartnerScopeDocument } from '../gql/graphql';
import type { Me } from './session';

/** A partner's scope: the sources and countries whose analytics it reads. */
export interface PartnerScope {
  sources: string[];
  countries: string[];
}

/** The answer per account: the scope, null (not a partner), or the error that kept us from knowing. */
const known = new Map<string, Promise<PartnerScope | null | ApiError>>();

function askScope(): Promise<PartnerScope | null | ApiError> {
  return request(PartnerScopeDocument).then(
    (d) => (d.partnerScope ? { sources: d.partnerScope.sources, countries: d.partnerScope.countries } : null),
    (e: unknown) => (e instanceof ApiError ? e : new ApiError('server', String(e))),
  );
}

export interface AnalyticsAccess {
  /** True for administrators and partners, false for anyone else, undefined while asking. */
  allowed: boolean | undefined;
  /** The partner's scope; null for administrators (the whole catalogue) and non-partners. */
  scope: PartnerScope | null;
  /** Set when the question could not be answered (network, server); asked again on the next mount. */
  error: ApiError | null;
}

export function useAnalyticsAccess(me: Me | null | undefined): AnalyticsAccess {
  const [answer, setAnswer] = useState<PartnerScope | null | ApiError | undefined>(undefined);
  const userId = me && !me.user.is_admin ? me.user.id : null;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    let asked = known.get(userId);
    if (!asked) {
      asked = askScope();
      known.set(userId, asked);
    }
    void asked.then((a) => {
      if (a instanceof ApiError) known.delete(userId);
      if (live) setAnswer(a);
    });
    return () => {
      live = false;
    };
  }, [userId]);
  if (!me) return { allowed: me === null ? false : undefined, scope: null, error: null };
  if (me.user.is_admin) return { allowed: true, scope: null, error: null };
  if (answer instanceof ApiError) return { allowed: false, scope: null, error: answer };
  return { allowed: answer === undefined ? undefined : answer !== null, scope: answer ?? null, error: null };
}

/** Forgets the answers (after a partner scope changed in this browser). */
export function forgetAnalyticsAccess(): void {
  known.clear();
}
