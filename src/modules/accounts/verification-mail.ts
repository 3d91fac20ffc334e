/**
 * The mail that proves an address: a one-time token valid 24 hours (stored hashed, like reset
 * tokens) in a link to /verify-email. Sent at registration (through the mail outbox, after the
 * answer) and on request (the dashboard's "Send the verification e-mail" button).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { MailMessage } from './mailer.js';
import { issueOneTimeToken, VERIFY_EMAIL_TOKEN_TTL_MS } from './one-time-tokens.js';

/** Issues a new verification token for `user` and composes its mail. */
export async function verificationMail(em: EntityManager, user: { id: string; email: string }, baseUrl: string): Promise<MailMessage> {
  const token = await issueOneTimeToken(em, user.id, 'verify_email', VERIFY_EMAIL_TOKEN_TTL_MS);
  const link = `${baseUrl}/verify-email?token=${token}`;
  return {
    to: user.email,
    subject: 'Verify your email address',
    text:
      `To confirm that this address belongs to your account, open this link within 24 hours:\n${link}\n\n` +
      `Verification token: ${token}\n\nIf you did not create an account, ignore this e-mail.`,
  };
}
