/**
 * The mail an owner gets after their address was proven or their password reset: what ended
 * (sessions, API keys by name and masked prefix, OAuth clients by name), and after a reset the keys
 * that stay, with how to revoke them. Never a secret: keys appear only as their masked prefix.
 * Key and client names are chosen by whoever made them (a squatter, any client registering), so
 * they are flattened to one line and cut short: they cannot add lines of their own to the mail.
 */
import type { MailMessage } from './mailer.js';
import type { KeyMention, ProofOutcome } from './email-proof.js';

const NAME_MAX = 80;

const SUBJECTS: Record<ProofOutcome['kind'], string> = {
  password_reset: 'Your password was changed',
  email_verification: 'Your e-mail address is verified',
  identity_provider: 'Your account is now linked to your sign-in provider',
  team_invite: 'Your e-mail address is verified',
};

const WHAT_HAPPENED: Record<ProofOutcome['kind'], string> = {
  password_reset: 'The password of your account was changed with a reset link sent to this address.',
  email_verification: 'This e-mail address was verified for your account with a link sent to it.',
  identity_provider: 'You signed in with an identity provider that verified this address, and it is now linked to your account.',
  team_invite: 'This e-mail address was verified for your account with the link of a team invite sent to it.',
};

/** The mail for `outcome`; null when the proof ended nothing (an address proven before, and no reset). */
export function proofMail(outcome: ProofOutcome, baseUrl: string): MailMessage | null {
  if (!outcome.ended) return null;
  const lines = [WHAT_HAPPENED[outcome.kind], ''];
  lines.push(
    outcome.kind === 'password_reset'
      ? 'To protect your account, these credentials were ended:'
      : 'Credentials made before the address was proven could belong to someone else, so these were ended:',
  );
  if (outcome.sessionsEnded) lines.push('- Sessions: all sessions (every browser signed in to your account is signed out; sign in again)');
  lines.push(`- API keys revoked: ${outcome.revokedKeys.length ? outcome.revokedKeys.map(keyLabel).join(', ') : 'none'}`);
  lines.push(
    `- OAuth clients (MCP agents) whose access was revoked: ${
      outcome.revokedClients.length ? outcome.revokedClients.map((c) => `${oneLine(c.client_name ?? 'unnamed client')} (client id ${oneLine(c.client_id)})`).join(', ') : 'none'
    }`,
  );
  if (outcome.kind === 'password_reset') {
    lines.push('');
    if (outcome.activeKeys.length) {
      lines.push('These API keys are still active (a reset keeps keys made after your address was proven, so integrations go on):');
      for (const key of outcome.activeKeys) {
        lines.push(`- ${keyLabel(key)}, created ${key.created_at.toISOString()}, last used ${key.last_used_at ? key.last_used_at.toISOString() : 'never'}`);
      }
      lines.push(
        `If you do not recognise one, revoke it on ${baseUrl}/dashboard/keys (or DELETE /v1/keys/{id}), ` +
          'or reset your password again and choose "Also revoke all API keys".',
      );
    } else {
      lines.push('You have no active API keys.');
    }
  }
  lines.push('', `If this was not you, reset your password at ${baseUrl}/forgot-password and check your API keys.`);
  return { to: outcome.email, subject: SUBJECTS[outcome.kind], text: lines.join('\n') };
}

function keyLabel(key: KeyMention): string {
  return `${oneLine(key.name)} (${key.key_prefix})`;
}

/** A user-chosen name on one line, at most NAME_MAX characters. */
function oneLine(name: string): string {
  const flat = name.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
  return flat.length > NAME_MAX ? `${flat.slice(0, NAME_MAX)}...` : flat;
}
