/**
 * The request context every service call receives first: who is calling and the
 * per-request database handle. Doors build it; services read it.
 */
import { randomUUID } from 'node:crypto';

export interface Caller {
  kind: 'anonymous';
  ip: string | null;
}

export interface RequestContext {
  requestId: string;
  caller: Caller;
}

/** Context for calls made by the service itself (startup, CLI) or by anonymous callers. */
export function anonymousContext(ip: string | null = null): RequestContext {
  return { requestId: randomUUID(), caller: { kind: 'anonymous', ip } };
}
