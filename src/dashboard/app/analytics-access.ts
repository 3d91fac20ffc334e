/**
 * May the signed-in account read partner analytics? Administrators may; a partner may; the API
 * has no field naming a partner's scope, so the answer for anyone else comes from asking one
 * analytics field (an empty day): a partner gets an answer, anyone else FORBIDDEN. Asked once
 * per account and page load, only for accounts that are not administrators.
 */
import { useEffect, useState } from 'react';
import { request } from '../api/client';
import { ApiError } from '../api/errors';
import { AnalyticsAccessDocument } from '../gql/graphql';
import type { Me } from './session';

/** The answer per account: true (a partner), false (FORBIDDEN), or the error that kept us from knowing. */
const known = new Map<string, Promise<boolean | ApiError>>();

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * `allowed`: true for administrators and partners, false for anyone else, undefined while asking;
 * `error` when the question could not be answered (network, server), asked again on the next mount.
 */
export function useAnalyticsAccess(me: Me | null | undefined): { allowed: boolean | undefined; error: ApiError | null } {
  const [answer, setAnswer] = useState<boolean | ApiError | undefined>(undefined);
  const userId = me && !me.user.is_admin ? me.user.id : null;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    let asked = known.get(userId);
    if (!asked) {
      asked = request(AnalyticsAccessDocument, { day: todayUtc() }).then(
        () => true,
        (e: unknown) => (e instanceof ApiError && e.kind === 'forbidden' ? false : e instanceof ApiError ? e : new ApiError('server', String(e))),
      );
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
  if (!me) return { allowed: me === null ? false : undefined, error: null };
  if (me.user.is_admin) return { allowed: true, error: null };
  return answer instanceof ApiError ? { allowed: false, error: answer } : { allowed: answer, error: null };
}

/** Forgets the answers (after a partner scope changed in this browser). */
export function forgetAnalyticsAccess(): void {
  known.clear();
}
