/**
 * May the signed-in account read partner analytics? Administrators may; a partner may; the API
 * has no field naming a partner's scope, so the answer for anyone else comes from asking one
 * analytics field (an empty day): a partner gets an answer, anyone else FORBIDDEN. Asked once
 * per account and page load, only for accounts that are not administrators.
 */
import { useEffect, useState } from 'react';
import { request } from '../api/client';
import { AnalyticsAccessDocument } from '../gql/graphql';
import type { Me } from './session';

const known = new Map<string, Promise<boolean>>();

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** True for administrators and partners, false for anyone else, undefined while asking. */
export function useAnalyticsAccess(me: Me | null | undefined): boolean | undefined {
  const [partner, setPartner] = useState<boolean | undefined>(undefined);
  const userId = me && !me.user.is_admin ? me.user.id : null;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    let asked = known.get(userId);
    if (!asked) {
      asked = request(AnalyticsAccessDocument, { day: todayUtc() }).then(() => true, () => false);
      known.set(userId, asked);
    }
    void asked.then((yes) => live && setPartner(yes));
    return () => {
      live = false;
    };
  }, [userId]);
  if (!me) return me === null ? false : undefined;
  return me.user.is_admin ? true : partner;
}

/** Forgets the answers (after a partner scope changed in this browser). */
export function forgetAnalyticsAccess(): void {
  known.clear();
}
