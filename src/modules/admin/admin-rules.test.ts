/**
 * The admin area's rules as pure functions (no database): who is an administrator, the listing's
 * search pattern and row view, the feedback report transitions and views, the erasure's e-mail hash.
 * The same rules on a real database: admin-services.test.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type AccountCaller, contextsWithoutDatabase } from '../../context.js';

const { anonymous: anonymousContext, forCaller: callerContext } = contextsWithoutDatabase;
import { DomainError } from '../../errors.js';
import { emailHash } from '../accounts/account-deletion.service.js';
import { isAdministrator } from '../accounts/sessions.js';
import { requireAdmin } from './admin-access.js';
import type { AdminUserRow } from './admin-users.queries.js';
import { containsPattern } from './admin-users.queries.js';
import { adminUserView } from './admin-users.service.js';
import { assertReportCanMove } from './feedback-admin.service.js';
import type { FeedbackReport } from './feedback-report.entity.js';
import { feedbackReportRecord, feedbackReportView } from './feedback-report.view.js';

function account(overrides: Partial<AccountCaller> = {}): AccountCaller {
  return { kind: 'user', ip: null, userId: randomUUID(), email: 'ann@example.org', plan: 'free', isAdmin: false, emailVerified: true, seats: 1, keyId: null, billingPeriod: null, ...overrides };
}

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof DomainError ? error.code : `not a DomainError: ${String(error)}`;
  }
}

describe('who is an administrator', () => {
  const admins = ['boss@example.org'];

  it('is a listed address that its account has proven (verified), whatever its case', () => {
    expect(isAdministrator(admins, 'boss@example.org', true)).toBe(true);
    expect(isAdministrator(admins, 'Boss@Example.ORG', true)).toBe(true);
    expect(isAdministrator(admins, 'boss@example.org', 1)).toBe(true);
  });

  it('is not a listed address before it is verified: anyone can register it first', () => {
    expect(isAdministrator(admins, 'boss@example.org', false)).toBe(false);
    expect(isAdministrator(admins, 'boss@example.org', null)).toBe(false);
    expect(isAdministrator(admins, 'boss@example.org', 0)).toBe(false);
  });

  it('is not an unlisted address, verified or not, nor anyone when nothing is listed', () => {
    expect(isAdministrator(admins, 'ann@example.org', true)).toBe(false);
    expect(isAdministrator([], 'boss@example.org', true)).toBe(false);
  });

  it('lets administrators through, refuses other accounts (403) and callers without credentials (401)', () => {
    const admin = account({ isAdmin: true });
    expect(requireAdmin(callerContext(admin))).toBe(admin);
    expect(codeOf(() => requireAdmin(callerContext(account())))).toBe('forbidden');
    expect(codeOf(() => requireAdmin(anonymousContext('127.0.0.1')))).toBe('unauthorized');
  });
});

describe('the user listing', () => {
  it('searches e-mail and name with %, _ and the escape character taken literally', () => {
    expect(containsPattern('ann')).toBe('%ann%');
    expect(containsPattern('100%_off')).toBe('%100\\%\\_off%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });

  const row = (overrides: Partial<AdminUserRow> = {}): AdminUserRow => ({
    id: randomUUID(),
    email: 'ann@example.org',
    name: null,
    email_verified: true,
    subscription_plan: 'free',
    created_at: new Date('2026-01-02T03:04:05Z'),
    override_plan: null,
    override_reason: null,
    override_by: null,
    override_at: null,
    workspace_id: null,
    workspace_name: null,
    workspace_role: null,
    last_active_at: null,
    requests_total: 7,
    ...overrides,
  });

  it("shows the subscription's plan when there is no override, and no workspace in a personal one", () => {
    const view = adminUserView(row(), 3, () => false);
    expect(view).toMatchObject({ plan: 'free', subscription_plan: 'free', override: null, workspace: null, role: null, is_admin: false });
    expect(view).toMatchObject({ created_at: '2026-01-02T03:04:05.000Z', last_active_at: null, requests_total: 7, requests_period: 3 });
  });

  it("shows the override's plan while one exists, with who set it, when and why", () => {
    const by = randomUUID();
    const view = adminUserView(row({ override_plan: 'professional', override_reason: 'partner', override_by: by, override_at: new Date('2026-02-01T00:00:00Z') }), 0, () => false);
    expect(view.plan).toBe('professional');
    expect(view.subscription_plan).toBe('free');
    expect(view.override).toEqual({ plan: 'professional', reason: 'partner', set_by_user_id: by, set_at: '2026-02-01T00:00:00.000Z' });
  });

  it('shows the team workspace and role of a member, and asks the administrator rule with the verified flag', () => {
    const asked: [string, boolean][] = [];
    const view = adminUserView(row({ workspace_id: 'w1', workspace_name: 'Team', workspace_role: 'admin', email_verified: false }), 0, (email, verified) => {
      asked.push([email, verified]);
      return true;
    });
    expect(view.workspace).toEqual({ id: 'w1', name: 'Team' });
    expect(view.role).toBe('admin');
    expect(view.is_admin).toBe(true);
    expect(asked).toEqual([['ann@example.org', false]]);
  });
});

describe('feedback reports', () => {
  it('move on while open or forwarded, and never once resolved or dismissed (409)', () => {
    expect(codeOf(() => assertReportCanMove('open'))).toBeNull();
    expect(codeOf(() => assertReportCanMove('forwarded'))).toBeNull();
    expect(codeOf(() => assertReportCanMove('resolved'))).toBe('conflict');
    expect(codeOf(() => assertReportCanMove('dismissed'))).toBe('conflict');
  });

  const report: FeedbackReport = {
    id: randomUUID(),
    user_id: randomUUID(),
    api_key_id: null,
    source: 'DE/BGH',
    source_id: null,
    issue_type: 'broken_text',
    description: 'The text stops mid-sentence.',
    status: 'forwarded',
    channel: 'mcp',
    created_at: new Date('2026-03-01T10:00:00Z'),
    forwarded_url: 'https://tracker.example.org/1',
    status_note: null,
    updated_at: new Date('2026-03-02T10:00:00Z'),
  } as FeedbackReport;

  it('show the admin area every field, times as ISO strings', () => {
    expect(feedbackReportRecord(report)).toEqual({
      id: report.id,
      source: 'DE/BGH',
      source_id: null,
      issue_type: 'broken_text',
      description: 'The text stops mid-sentence.',
      status: 'forwarded',
      channel: 'mcp',
      user_id: report.user_id,
      forwarded_url: 'https://tracker.example.org/1',
      status_note: null,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-02T10:00:00.000Z',
    });
  });

  it('give the reporter back the report without the channel, its ids or the admin fields, in the same key order', () => {
    const view = feedbackReportView(report);
    expect(Object.keys(view)).toEqual(['id', 'source', 'source_id', 'issue_type', 'description', 'status', 'created_at']);
    expect(view.created_at).toBe('2026-03-01T10:00:00.000Z');
  });
});

describe('erasure', () => {
  it('logs a SHA-256 of the trimmed, lower-cased address, never the address', () => {
    const expected = createHash('sha256').update('ann@example.org').digest('hex');
    expect(emailHash('  Ann@Example.org ')).toBe(expected);
    expect(emailHash('ann@example.org')).toBe(expected);
  });
});
