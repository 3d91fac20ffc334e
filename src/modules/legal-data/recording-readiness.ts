/**
 * What /ready says of the two write queues off the request path, usage rows and analytics events
 * (issue #33 item 2, issue #35 item 1): their lag always, and "not ready" with a `missing` entry
 * only once one lags too far (a short database outage keeps the process in the load balancer).
 */
import type { Readiness } from './catalog.schema.js';

type UsageLag = NonNullable<Readiness['usage_recording']>;
type AnalyticsLag = NonNullable<Readiness['analytics_recording']>;
export interface QueueLag<L> {
  lag: L;
  tooFarBehind: boolean;
}

export function recordingReadiness(usage: QueueLag<UsageLag> | null, analytics: QueueLag<AnalyticsLag> | null) {
  const behind = (queue: QueueLag<UsageLag | AnalyticsLag> | null, dependency: string, what: string) =>
    queue?.tooFarBehind ? [{ dependency, detail: `${queue.lag.pending_rows} ${what} not written for ${queue.lag.oldest_pending_seconds} s` }] : [];
  return {
    tooFarBehind: Boolean(usage?.tooFarBehind || analytics?.tooFarBehind),
    missing: [...behind(usage, 'usage recording', 'usage row(s)'), ...behind(analytics, 'analytics recording', 'analytics event(s)')],
    fields: { ...(usage ? { usage_recording: usage.lag } : {}), ...(analytics ? { analytics_recording: analytics.lag } : {}) },
  };
}
