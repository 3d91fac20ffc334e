/**
 * Outgoing e-mail: SMTP through nodemailer when SMTP_URL is set; otherwise (development) the
 * message is written to the log so a developer can follow the link.
 */
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

/** A mailer for SMTP_URL, or a log-only one when it is unset. */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger; production?: boolean }): Mailer {
  const { smtpUrl, from, logger } = options;
  if (!smtpUrl) {
    return {
      async send(message) {
        // the body carries one-time tokens: only a development log may show it
        if (options.production) logger.warn(`mail not sent (no SMTP_URL configured): "${message.subject}"`);
        else logger.info(`mail (no SMTP_URL configured, not sent) to ${message.to}: ${message.subject}\n${message.text}`);
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
