import { ConfigError, loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { createMailer, recipientHash } from './mailer.js';

const message = { to: 'Someone@Example.org', subject: 'Reset your password', text: 'Reset token: s3cr3t-one-time-token' };

/** A mailer as the accounts module builds it from an environment (no SMTP_URL), and its log lines. */
function mailerFor(env: Record<string, string | undefined>) {
  const lines: string[] = [];
  const config = loadConfig({ SESSION_SECRET: 'x'.repeat(32), ...env });
  const mailer = createMailer({ smtpUrl: undefined, from: 'a@b.c', logger: createLogger('debug', (l) => lines.push(l)), logContents: config.accounts.mailLog });
  return { mailer, lines };
}

describe('mail without SMTP', () => {
  it.each([{}, { NODE_ENV: 'staging' }, { NODE_ENV: 'development' }, { NODE_ENV: 'production' }])(
    'never logs the contents or the recipient unless asked (%j)',
    async (env) => {
      const { mailer, lines } = mailerFor(env);
      await mailer.send(message);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: expect.stringMatching(/^mail not sent \(no SMTP_URL configured\): "Reset your password" to recipient [0-9a-f]{12}$/) });
      expect(lines[0]).toContain(recipientHash('someone@example.org'));
      expect(lines.join('\n')).not.toMatch(/s3cr3t|someone@example\.org/i);
    },
  );

  it.each([{ MAIL_LOG: 'true' }, { DEV_LOGIN: 'true' }])('logs the whole mail for local development with %j', async (env) => {
    const { mailer, lines } = mailerFor(env);
    await mailer.send(message);
    expect(lines.join('\n')).toContain('Reset token: s3cr3t-one-time-token');
  });
});

describe('DEV_LOGIN', () => {
  it('is refused at boot when NODE_ENV=production', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...production, DEV_LOGIN: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, DEV_LOGIN: 'true' })).toThrow(/DEV_LOGIN: must not be true when NODE_ENV=production/);
    expect(loadConfig(production).accounts.devLogin).toBe(false);
    expect(loadConfig({ DEV_LOGIN: 'true' }).accounts.devLogin).toBe(true);
  });
});
