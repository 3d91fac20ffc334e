/** A real SMTP server on an ephemeral port that keeps every message it receives (tests read the mail). */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the next mail to `to` (or one already received). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The decoded text of the first mail to `to` (received or to come) whose text matches `pattern`. */
  waitForText(to: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
  /**
   * Holds every mail from now on: the server withholds its answer to the message until
   * `release()`, so a sender that waits for the mail to be accepted waits too.
   */
  hold(): void;
  release(): void;
  stop(): Promise<void>;
}

/** A mail's text with quoted-printable soft line breaks and escapes decoded (nodemailer's encoding of long lines). */
export function mailText(mail: ReceivedMail): string {
  return mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  let gate: { opened: Promise<void>; open(): void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const accept = () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        };
        if (gate) void gate.opened.then(accept);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => m.to.includes(to.toLowerCase()));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async waitForText(to, pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => m.to.includes(to.toLowerCase()) && pattern.test(mailText(m)));
        if (mail) return mailText(mail);
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    hold() {
      if (gate) return;
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { opened, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
