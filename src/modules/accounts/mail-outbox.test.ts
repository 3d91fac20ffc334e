import { ConfigError, loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { freePort } from '../../../test/helpers/http.js';
import { startTestSmtp, type TestSmtp } from '../../../test/helpers/smtp.js';
import { MailOutbox } from './mail-outbox.js';
import { createMailer } from './mailer.js';

const secretMail = (to: string) => ({ to, subject: 'Reset your password', text: 'Reset token: s3cr3t-one-time-token' });

describe('mail outbox (a real SMTP server)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    smtp.release();
    await smtp.stop();
  });

  const outboxFor = (smtpUrl: string, maxPending = 10) => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => lines.push(line));
    const mailer = createMailer({ smtpUrl, from: 'a@b.c', logger });
    return { outbox: new MailOutbox({ mailer, logger, maxPending }), lines, mailer };
  };

  it('sends after the caller moved on, in order, and drain waits for every queued mail', async () => {
    const { outbox, mailer } = outboxFor(smtp.url);
    smtp.hold();
    let composed = 0;
    for (const n of [1, 2, 3]) {
      expect(
        outbox.enqueue('test', async () => {
          composed++;
          return secretMail(`outbox${n}@example.org`);
        }),
      ).toBe(true);
    }
    // nothing ran yet: the caller answers first
    expect(composed).toBe(0);
    expect(outbox.size).toBe(3);
    const drained = outbox.drain();
    await new Promise((r) => setTimeout(r, 300)); // the server holds the first mail meanwhile
    expect(smtp.mails.filter((m) => m.to[0]!.startsWith('outbox'))).toHaveLength(0);
    smtp.release();
    await drained;
    expect(outbox.size).toBe(0);
    expect(smtp.mails.filter((m) => m.to[0]!.startsWith('outbox')).map((m) => m.to[0])).toEqual(['outbox1@example.org', 'outbox2@example.org', 'outbox3@example.org']);
    mailer.close();
  });

  it('sends nothing when the composer answers null (no account), and drops past maxPending with a warning', async () => {
    const { outbox, lines, mailer } = outboxFor(smtp.url, 2);
    const before = smtp.mails.length;
    smtp.hold();
    expect(outbox.enqueue('none', async () => null)).toBe(true);
    expect(outbox.enqueue('held', async () => secretMail('held@example.org'))).toBe(true);
    expect(outbox.enqueue('dropped', async () => secretMail('dropped@example.org'))).toBe(false);
    expect(lines.map((l) => JSON.parse(l).msg)).toContain('mail outbox: 2 mails pending (MAIL_OUTBOX_MAX_PENDING): "dropped" dropped');
    smtp.release();
    await outbox.drain();
    expect(smtp.mails.slice(before).map((m) => m.to[0])).toEqual(['held@example.org']);
    mailer.close();
  });

  it('logs a failed send with its label and the recipient hashed, never the mail or the address', async () => {
    const closedPort = await freePort();
    const { outbox, lines, mailer } = outboxFor(`smtp://127.0.0.1:${closedPort}`);
    outbox.enqueue('password reset', async () => secretMail('victim@example.org'));
    await outbox.drain();
    const log = lines.join('\n');
    expect(log).toMatch(/mail outbox: \\"password reset\\" could not be sent to recipient [0-9a-f]{12}/);
    expect(log).not.toMatch(/s3cr3t|victim@example\.org/);
    mailer.close();
  });

  it('reads its bound from MAIL_OUTBOX_MAX_PENDING (default 1000, at least 1)', () => {
    expect(loadConfig({}).accounts.mailOutboxMaxPending).toBe(1000);
    expect(loadConfig({ MAIL_OUTBOX_MAX_PENDING: '5' }).accounts.mailOutboxMaxPending).toBe(5);
    expect(() => loadConfig({ MAIL_OUTBOX_MAX_PENDING: '0' })).toThrow(ConfigError);
  });
});
