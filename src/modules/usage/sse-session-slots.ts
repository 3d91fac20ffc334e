/**
 * Who may hold the MCP SSE streams (GET /sse) of this process, and for how long (issue #31
 * item 4). Each stream holds a socket and an MCP server instance until the client leaves, and
 * the process has a fixed number of them (SSE_MAX_SESSIONS), so no single client may keep them:
 *
 * - per account (SSE_MAX_SESSIONS_PER_ACCOUNT), and fewer for an account whose e-mail is not
 *   verified (SSE_MAX_SESSIONS_UNVERIFIED): such accounts cost an attacker nothing to make;
 * - per client address (SSE_MAX_SESSIONS_PER_IP, `req.ip`: the client a trusted proxy names; an
 *   IPv6 client by its /64), however many accounts it uses;
 * - idle streams close (SSE_IDLE_TIMEOUT_SECONDS). "Idle" means the client posted no message on
 *   the session (POST /sse/messages) for that long. What the server sends does not count: it
 *   proves nothing about the client, and a stream nobody reads would otherwise live forever. An
 *   MCP client that waits for its user between tool calls is idle too: its stream is closed and
 *   it reconnects when it needs one (MCP clients do), or keeps it by sending MCP `ping` requests,
 *   which count. The streamable endpoint /mcp holds nothing between requests.
 *
 * In-process (like the streams themselves): each replica caps its own streams.
 */
import type { AccountCaller } from '../../context.js';
import type { SseLimits } from '../../config.js';
import { DomainError } from '../../errors.js';
import { clientAddressKey } from '../../util/client-address.js';

/**
 * Seconds a client refused at a cap is told to wait: a slot frees when a stream's client leaves
 * or falls idle, which no clock predicts exactly, so this is a polite pause, not a promise.
 */
export const SSE_RETRY_AFTER_SECONDS = 30;

/** A stream's place under the caps: touched by each client message, released when the stream ends. */
export interface SseSessionSlot {
  /** The client posted a message: the idle timeout starts again. */
  touch(): void;
  /** The stream ended: frees the slot (idempotent). */
  release(): void;
}

interface HeldSlot {
  userId: string;
  address: string;
}

export class SseSessionSlots {
  private readonly held = new Set<HeldSlot>();

  constructor(private readonly limits: SseLimits) {}

  /** Open streams in this process. */
  get size(): number {
    return this.held.size;
  }

  /**
   * Reserves a slot for a stream of `caller` (from `caller.ip`), or throws `rate_limited` (429,
   * Retry-After) naming the cap that refused it. `onIdle` runs once the client has posted nothing
   * for SSE_IDLE_TIMEOUT_SECONDS: it must end the stream, which releases the slot.
   */
  claim(caller: AccountCaller, onIdle: () => void): SseSessionSlot {
    const address = clientAddressKey(caller.ip);
    const refusal = this.refusal(caller, address);
    if (refusal) throw new DomainError('rate_limited', refusal, { retryAfterSeconds: SSE_RETRY_AFTER_SECONDS });
    const slot: HeldSlot = { userId: caller.userId, address };
    this.held.add(slot);
    const idle = setTimeout(onIdle, this.limits.idleTimeoutSeconds * 1000);
    idle.unref(); // a slot never keeps the process alive
    return {
      touch: () => {
        if (this.held.has(slot)) idle.refresh();
      },
      release: () => {
        clearTimeout(idle);
        this.held.delete(slot);
      },
    };
  }

  private refusal(caller: AccountCaller, address: string): string | null {
    const { maxSessions, maxSessionsPerAccount, maxSessionsPerIp, maxSessionsUnverified } = this.limits;
    let ofAccount = 0;
    let ofAddress = 0;
    for (const slot of this.held) {
      if (slot.userId === caller.userId) ofAccount++;
      if (slot.address === address) ofAddress++;
    }
    const useMcp = 'or use the streamable HTTP endpoint /mcp';
    if (!caller.emailVerified && ofAccount >= Math.min(maxSessionsUnverified, maxSessionsPerAccount)) {
      const cap = Math.min(maxSessionsUnverified, maxSessionsPerAccount);
      return cap === 0
        ? `SSE sessions need an account whose e-mail address is verified: verify it, ${useMcp}`
        : `Too many open SSE sessions for an account whose e-mail address is not verified (at most ${cap}): verify it, close one, ${useMcp}`;
    }
    if (ofAccount >= maxSessionsPerAccount) return `Too many open SSE sessions for this account (at most ${maxSessionsPerAccount}): close one, ${useMcp}`;
    if (ofAddress >= maxSessionsPerIp) return `Too many open SSE sessions from this address (at most ${maxSessionsPerIp}): close one, ${useMcp}`;
    if (this.held.size >= maxSessions) return `Too many open SSE sessions on this server: retry later, ${useMcp}`;
    return null;
  }
}
