/** Request bodies and answers of the team endpoints (zod: validation and /openapi.json; the spec's resource names). */
import { z } from 'zod';
import { ValidationError } from '../../errors.js';
import { emailField } from '../accounts/account.schema.js';

export const MAX_INVITES_PER_REQUEST = 50;
export const MAX_DOMAINS = 20;

export const inviteRequestSchema = z
  .object({ emails: z.array(emailField).min(1).max(MAX_INVITES_PER_REQUEST).describe('1 to 50 e-mail addresses.') })
  .meta({ id: 'InviteRequest' });

export const domainsRequestSchema = z
  .object({ domains: z.array(z.string().max(253)).max(MAX_DOMAINS).default([]).describe('At most 20 domain names; replaces the list (omitted: none).') })
  .meta({ id: 'DomainsRequest' });

export const joinRequestSchema = z.object({ token: z.string().min(1).max(200) }).meta({ id: 'JoinRequest' });

export const seatsRequestSchema = z.object({ quantity: z.number().int().min(1).max(10_000) }).meta({ id: 'SeatsRequest' });

export const roleRequestSchema = z.object({ role: z.enum(['admin', 'member']) }).meta({ id: 'RoleRequest' });

export const uuidParam = z.uuid();

const member = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(['owner', 'admin', 'member']),
  joined_at: z.string(),
  requests_in_period: z.number().int(),
});
const invite = z.object({ id: z.string(), email: z.string(), invited_by: z.string(), created_at: z.string(), expires_at: z.string() });
const joinLink = z.object({ token: z.string(), url: z.string(), created_at: z.string() });

export const domainRecordSchema = z
  .object({
    domain: z.string(),
    status: z.enum(['pending', 'verified']).describe('Only a verified domain auto-joins accounts at sign-in; pending until its TXT record is seen, and again when a re-check misses it.'),
    verification: z
      .object({ type: z.literal('TXT'), name: z.string(), value: z.string() })
      .describe('The DNS record that proves the workspace controls the domain: publish it, then check.'),
    verified_at: z.string().nullable(),
    checked_at: z.string().nullable().describe('The last look-up (an owner\'s check or the periodic re-check).'),
    check_error: z
      .enum(['record_missing', 'dns_error', 'verified_elsewhere'])
      .nullable()
      .describe('Why the last check did not verify: no such record; no usable DNS answer; another workspace holds the domain with its record still published.'),
  })
  .meta({ id: 'TeamDomain' });
export type DomainRecord = z.infer<typeof domainRecordSchema>;

export const teamRecordSchema = z
  .object({
    workspace: z.object({
      id: z.string().nullable().describe('null for the personal workspace (not stored).'),
      kind: z.enum(['personal', 'team']),
      name: z.string(),
      plan: z.string(),
      seat_limit: z.number().int(),
      seats_used: z.number().int().describe('Members plus pending invites.'),
      allowed_domains: z.array(z.string()).describe('Every listed domain, pending ones included (see domains).'),
      domains: z.array(domainRecordSchema).describe('The listed domains with their proof state; only verified ones auto-join.'),
    }),
    role: z.enum(['owner', 'admin', 'member']),
    members: z.array(member),
    invites: z.array(invite),
    join_link: joinLink.nullable().optional().describe('Owner and admins only.'),
  })
  .meta({ id: 'TeamRecord' });
export type TeamRecord = z.infer<typeof teamRecordSchema>;
export type MemberRecord = z.infer<typeof member>;
export type InviteRecord = z.infer<typeof invite>;
export type JoinLinkRecord = z.infer<typeof joinLink>;

export const inviteAnswerSchema = z
  .object({
    invites: z.array(invite),
    skipped: z.array(z.object({ email: z.string(), reason: z.enum(['already_member', 'already_invited', 'duplicate']) })),
  })
  .meta({ id: 'InviteAnswer' });
export type InviteAnswer = z.infer<typeof inviteAnswerSchema>;

export const joinAnswerSchema = z
  .object({ workspace_id: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'member']), joined: z.boolean().describe('false when the caller was already a member.') })
  .meta({ id: 'JoinAnswer' });
export type JoinAnswer = z.infer<typeof joinAnswerSchema>;

export const memberAnswerSchema = z.object({ user_id: z.string(), role: z.enum(['owner', 'admin', 'member']) }).meta({ id: 'MemberRoleAnswer' });
export const removedAnswerSchema = z.object({ status: z.literal('removed'), user_id: z.string() }).meta({ id: 'MemberRemoved' });
export const inviteRevokedSchema = z.object({ status: z.literal('revoked'), id: z.string() }).meta({ id: 'InviteRevoked' });
export const joinLinkAnswerSchema = z.object({ join_link: joinLink.nullable() }).meta({ id: 'JoinLinkAnswer' });
export const domainsAnswerSchema = z
  .object({ allowed_domains: z.array(z.string()), domains: z.array(domainRecordSchema).describe('Each listed domain with its proof state and the TXT record to publish.') })
  .meta({ id: 'DomainsAnswer' });
export const seatsAnswerSchema = z
  .object({ quantity: z.number().int().describe('The quantity asked of the payment provider.'), seat_limit: z.number().int().describe('Unchanged until the provider reports the update.') })
  .meta({ id: 'SeatsAnswer' });

// any 8-4-4-4-12 hex id (not z.uuid(), which also checks the version and variant digits)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that must be a UUID, else the 422 a UUID path parameter gets (`uuid_parsing` at `name`). */
export function assertUuid(value: string, name: string): void {
  if (!UUID.test(value)) {
    throw new ValidationError([{ type: 'uuid_parsing', loc: [name], msg: 'Input should be a valid UUID', input: value }]);
  }
}
