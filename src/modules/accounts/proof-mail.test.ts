import type { ProofOutcome } from './email-proof.js';
import { proofMail } from './proof-mail.js';

const created = new Date('2026-11-01T09:00:00Z');
const outcome = (over: Partial<ProofOutcome>): ProofOutcome => ({
  kind: 'password_reset',
  userId: 'u1',
  email: 'owner@example.org',
  ended: true,
  sessionsEnded: true,
  revokedKeys: [],
  revokedClients: [],
  activeKeys: [],
  ...over,
});

describe('the mail after a proof', () => {
  it('names what ended and, after a reset, the keys that stay with how to revoke them', () => {
    const mail = proofMail(
      outcome({
        revokedKeys: [{ name: 'old key', key_prefix: 'sk-AbCd...wXyZ', created_at: created, last_used_at: null }],
        revokedClients: [{ client_id: 'c-1', client_name: 'Desk agent' }],
        activeKeys: [{ name: 'ci', key_prefix: 'sk-EfGh...1234', created_at: created, last_used_at: null }],
      }),
      'https://search.example',
    )!;
    expect(mail).toMatchObject({ to: 'owner@example.org', subject: 'Your password was changed' });
    expect(mail.text).toContain('- Sessions: all sessions');
    expect(mail.text).toContain('- API keys revoked: old key (sk-AbCd...wXyZ)');
    expect(mail.text).toContain('Desk agent (client id c-1)');
    expect(mail.text).toContain('- ci (sk-EfGh...1234), created 2026-11-01T09:00:00.000Z, last used never');
    expect(mail.text).toContain('https://search.example/dashboard/keys');
  });

  it('keeps names chosen by others on one line and short: they cannot write lines of their own', () => {
    const mail = proofMail(
      outcome({
        kind: 'email_verification',
        revokedKeys: [{ name: 'k\n\nURGENT: your account is locked, call +1 555', key_prefix: 'sk-AbCd...wXyZ', created_at: created, last_used_at: null }],
        revokedClients: [{ client_id: 'c-2', client_name: `agent\r\nVisit https://evil.example ${'x'.repeat(200)}` }],
      }),
      'https://search.example',
    )!;
    expect(mail.text.split('\n').filter((line) => /URGENT|evil\.example/.test(line))).toEqual([
      expect.stringMatching(/^- API keys revoked: k URGENT/),
      expect.stringMatching(/^- OAuth clients .*agent Visit https:\/\/evil\.example x+\.\.\. \(client id c-2\)$/),
    ]);
    expect(mail.text).not.toContain('x'.repeat(100));
    // a verification lists no remaining keys (only a reset keeps some)
    expect(mail.text).not.toMatch(/still active/);
  });

  it('sends nothing when nothing ended', () => {
    expect(proofMail(outcome({ kind: 'email_verification', ended: false, sessionsEnded: false }), 'https://search.example')).toBeNull();
  });
});
