/**
 * Outgoing e-mail: SMTP through nodemailer when SMTP_URL is set. Without SMTP the mail is not
 * sent; its contents (one-time tokens) reach the log only when a development setting asks for
 * it (MAIL_LOG=true or DEV_LOGIN=true), whatever NODE_ENV says; otherwise the log only says that
 * a mail could not be sent, with a hash of the recipient.
 */
import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Logger } from '../../logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A mailer for SMTP_URL, or a log-only one when it is unset (contents logged only with `logContents`). */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger; logContents?: boolean }): Mailer {
  const { smtpUrl, from, logger } = options;
  if (!smtpUrl) {
    return {
      async send(message) {
        if (options.logContents) {
          logger.info(`mail (no SMTP_URL configured, not sent; MAIL_LOG) to ${message.to}: ${message.subject}\n${message.text}`);
        } else {
          logger.warn(`mail not sent (no SMTP_URL configured): "${message.subject}" to recipient ${recipientHash(message.to)}`);
        }
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close() {
      transport.close();
    },
  };
}

/** A short, stable tag of a recipient for logs (lets an operator correlate lines without the address). */
export function recipientHash(to: string): string {
  return createHash('sha256').update(to.trim().toLowerCase()).digest('hex').slice(0, 12);
}
