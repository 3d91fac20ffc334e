/**
 * Mail sent off the request path. A request queues the work that builds its mail (database
 * look-ups included) and answers at once; the outbox runs that work afterwards, one mail at a
 * time, in this process. Why: a password-reset request that looked the account up, stored a
 * token and waited for the SMTP server before answering took twice as long for an existing
 * address (42 ms against 20 ms median), which told anyone whether the address has an account;
 * queued, both answers take the same path. A failure is logged with the mail's label and the
 * error's message only: never the recipient in clear, never the mail's text (it may hold a token).
 * The queue lives in memory: a process that stops drains it first (`drain`), a crash loses what
 * was queued (the person asks again), and past MAIL_OUTBOX_MAX_PENDING queued mails new ones are
 * dropped and logged rather than holding memory without bound.
 */
import type { Logger } from '../../logger.js';
import { type Mailer, type MailMessage, recipientHash } from './mailer.js';

/** Builds the mail to send (or null for none) when its turn comes; runs after the request answered. */
export type MailComposer = () => Promise<MailMessage | null>;

export class MailOutbox {
  private pending = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { mailer: Mailer; logger: Pick<Logger, 'warn' | 'error'>; maxPending: number }) {}

  /**
   * Queues `compose` under `label` (a fixed text for the logs, e.g. "password reset"); false when
   * the outbox is full and the mail was dropped (logged). Never throws, never waits.
   */
  enqueue(label: string, compose: MailComposer): boolean {
    if (this.pending >= this.deps.maxPending) {
      this.deps.logger.warn(`mail outbox: ${this.pending} mails pending (MAIL_OUTBOX_MAX_PENDING): "${label}" dropped`);
      return false;
    }
    this.pending++;
    // the chain waits for the request's own work (a turn of the event loop at least) before it runs
    this.tail = this.tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.run(label, compose));
    return true;
  }

  /** Resolves once every mail queued so far was sent or failed (shutdown; tests that count mails). */
  async drain(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail);
  }

  /** Mails queued and not yet sent or failed. */
  get size(): number {
    return this.pending;
  }

  private async run(label: string, compose: MailComposer): Promise<void> {
    let to: string | null = null;
    try {
      const message = await compose();
      if (!message) return;
      to = message.to;
      await this.deps.mailer.send(message);
    } catch (error) {
      // the message only: an SMTP error can echo parts of the exchange, and the mail holds tokens
      const reason = error instanceof Error ? error.message.slice(0, 300).replace(/[^\s<>@]+@[^\s<>@]+/g, '[address]') : 'unknown error';
      this.deps.logger.error(`mail outbox: "${label}" could not be sent${to ? ` to recipient ${recipientHash(to)}` : ''}: ${reason}`);
    } finally {
      this.pending--;
    }
  }
}
