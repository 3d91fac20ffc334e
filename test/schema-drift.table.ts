/**
 * The pairs the drift check compares (`schema-drift.test.ts`): each root GraphQL type of a
 * subgraph with the zod schema of the REST shape it mirrors. Nested types are paired through the
 * fields that hold them, so they need no row. REST is the contract: on a drift the GraphQL side
 * moves, unless the zod side is wrong; a difference kept on purpose is an exception with its reason.
 */
import type { z } from 'zod';
import type { DriftExceptions } from './helpers/schema-drift.js';
import {
  apiKeyRecordSchema,
  createdApiKeySchema,
  keyRevocationSchema,
  meRecordSchema,
  oauthGrantRecordSchema,
  oauthGrantRevocationSchema,
} from '../src/modules/accounts/account.schema.js';
import { usageRecordSchema } from '../src/modules/usage/usage.schema.js';
import { usageBreakdownSchema } from '../src/modules/usage/usage-breakdown.js';
import {
  audienceAnswerSchema,
  audiencePlansSchema,
  autoTopupBodySchema,
  autoTopupSettingSchema,
  billingStatusSchema,
  checkoutBodySchema,
  checkoutUrlSchema,
  checkoutVerificationSchema,
  invoiceListSchema,
  portalSessionSchema,
  promoAnswerSchema,
} from '../src/modules/billing/billing.schema.js';
import {
  domainsAnswerSchema,
  inviteAnswerSchema,
  joinAnswerSchema,
  joinLinkAnswerSchema,
  memberAnswerSchema,
  seatsAnswerSchema,
  teamRecordSchema,
} from '../src/modules/teams/teams.schema.js';
import { adminStatsSchema, adminUsersPageSchema, planOverrideBodySchema, userEndpointsSchema, usersQuerySchema } from '../src/modules/admin/admin.schema.js';
import { adminFeedbackListSchema, feedbackQuerySchema, feedbackUpdateSchema } from '../src/modules/admin/feedback-admin.service.js';
import { AUDIT_ACTIONS, auditPageSchema } from '../src/modules/admin/audit-log.js';
import { z as zod } from 'zod';
import { filtersQuerySchema } from '../src/rest/legal-data.routes.js';
import { roleRequestSchema } from '../src/modules/teams/teams.schema.js';
import { audienceBodySchema, checkoutDocumentsQuerySchema, plansQuerySchema } from '../src/modules/billing/billing.schema.js';
import { planOverrideAnswerSchema } from '../src/modules/admin/plan-override.service.js';
import { erasureAnswerSchema } from '../src/modules/admin/user-erasure.service.js';
import {
  countryUsageAnswerSchema,
  countryUsageQuerySchema,
  partnerAnswerSchema,
  partnerRemovalAnswerSchema,
  resolverOutcomesAnswerSchema,
  sourceUsageAnswerSchema,
  sourceUsageQuerySchema,
  topDocumentsAnswerSchema,
} from '../src/modules/analytics/analytics.schema.js';
import {
  countryInfoSchema,
  courtInfoSchema,
  documentSchema,
  manifestSchema,
  sourceFiltersSchema,
  sourceInfoSchema,
  statsSchema,
} from '../src/modules/legal-data/catalog.schema.js';
import { resolveCoverageSchema, resolveRequestSchema, resolveResponseSchema } from '../src/modules/legal-data/resolve.schema.js';
import { searchRequestSchema, searchResponseSchema } from '../src/modules/legal-data/search.schema.js';
import { citedByResponseSchema, citesResponseSchema } from '../src/modules/legal-data/citator/citator.schema.js';

export interface ShapePair {
  subgraph: string;
  type: string;
  schema: z.ZodObject;
}

const pairs = (subgraph: string, rows: [string, z.ZodObject][]): ShapePair[] => rows.map(([type, schema]) => ({ subgraph, type, schema }));

export const SHAPE_PAIRS: ShapePair[] = [
  ...pairs('legal-data', [
    ['SearchInput', searchRequestSchema],
    ['SearchResponse', searchResponseSchema],
    ['Document', documentSchema],
    ['CountryInfo', countryInfoSchema],
    ['SourceInfo', sourceInfoSchema],
    ['SourceFilters', sourceFiltersSchema],
    ['CourtInfo', courtInfoSchema],
    ['Stats', statsSchema],
    ['Manifest', manifestSchema],
    ['ResolveInput', resolveRequestSchema],
    ['ResolveResponse', resolveResponseSchema],
    ['ResolveCoverage', resolveCoverageSchema],
    ['CitedByPage', citedByResponseSchema],
    ['Cites', citesResponseSchema],
  ]),
  ...pairs('accounts', [
    ['MeType', meRecordSchema],
    ['ApiKeyType', apiKeyRecordSchema],
    ['CreatedApiKeyType', createdApiKeySchema],
    ['KeyRevocationType', keyRevocationSchema],
    ['OAuthGrantType', oauthGrantRecordSchema],
    ['OAuthGrantRevocationType', oauthGrantRevocationSchema],
    ['UsageType', usageRecordSchema],
    ['UsageBreakdownType', usageBreakdownSchema],
  ]),
  ...pairs('billing', [
    ['BillingStatusType', billingStatusSchema],
    ['PlansType', audiencePlansSchema],
    ['PromoType', promoAnswerSchema],
    ['AutoTopupType', autoTopupSettingSchema],
    ['CheckoutUrlType', checkoutUrlSchema],
    ['CheckoutInput', checkoutBodySchema],
    ['CheckoutVerificationType', checkoutVerificationSchema],
    ['AutoTopupInput', autoTopupBodySchema],
    ['PortalSessionType', portalSessionSchema],
    ['AudienceType', audienceAnswerSchema],
    ['InvoiceListType', invoiceListSchema],
  ]),
  ...pairs('teams', [
    // GraphQL's Workspace is REST's TeamRecord with `workspace`'s fields lifted to the top
    ['Workspace', teamRecordSchema.omit({ workspace: true }).extend(teamRecordSchema.shape.workspace.shape)],
    ['TeamInvitesResult', inviteAnswerSchema],
    ['TeamJoinResult', joinAnswerSchema],
    ['TeamJoinLinkResult', joinLinkAnswerSchema],
    ['TeamDomains', domainsAnswerSchema],
    ['TeamMemberRole', memberAnswerSchema],
    ['TeamSeats', seatsAnswerSchema],
  ]),
  ...pairs('admin', [
    ['AdminStatsType', adminStatsSchema],
    ['AdminUsersPageType', adminUsersPageSchema],
    ['UserEndpointsType', userEndpointsSchema],
    ['AdminFeedbackListType', adminFeedbackListSchema],
    ['AdminAuditPageType', auditPageSchema],
    ['PlanOverrideResultType', planOverrideAnswerSchema],
    ['UserErasureResultType', erasureAnswerSchema],
    ['SourceUsageType', sourceUsageAnswerSchema],
    ['CountryUsageType', countryUsageAnswerSchema],
    ['TopDocumentsType', topDocumentsAnswerSchema],
    ['ResolverOutcomesType', resolverOutcomesAnswerSchema],
    ['PartnerScopeType', partnerAnswerSchema],
    ['PartnerRemovalType', partnerRemovalAnswerSchema],
  ]),
];

export interface ArgumentPair {
  subgraph: string;
  /** `Query.field` or `Mutation.field`. */
  field: string;
  argument: string;
  /** The REST schema of the same value (a query parameter or a body field). */
  schema: zod.ZodType;
}

const argument = (subgraph: string, field: string, name: string, schema: zod.ZodType): ArgumentPair => ({ subgraph, field, argument: name, schema });

/**
 * The closed-set arguments (issue #35, item 7), each with the REST value it stands for: the
 * GraphQL enum must hold exactly the REST set. Every enum argument of a root field needs a row
 * (`schema-drift.test.ts`); closed sets inside input objects are compared through the input type.
 */
export const ARGUMENT_PAIRS: ArgumentPair[] = [
  argument('legal-data', 'Query.filters', 'namespace', filtersQuerySchema.shape.namespace),
  argument('billing', 'Query.plans', 'audience', plansQuerySchema.shape.audience),
  argument('billing', 'Query.checkoutDocuments', 'plan', checkoutDocumentsQuerySchema.shape.plan),
  argument('billing', 'Mutation.setAudience', 'audience', audienceBodySchema.shape.audience),
  argument('teams', 'Mutation.changeMemberRole', 'role', roleRequestSchema.shape.role),
  argument('admin', 'Query.adminUsers', 'sort', usersQuerySchema.shape.sort),
  argument('admin', 'Query.adminFeedback', 'status', feedbackQuerySchema.shape.status),
  // REST filters the audit log by any string (an unknown action matches nothing); GraphQL closes
  // the set to the actions the service writes
  argument('admin', 'Query.adminAudit', 'action', zod.enum(AUDIT_ACTIONS).optional()),
  argument('admin', 'Mutation.adminSetPlanOverride', 'plan', planOverrideBodySchema.shape.plan),
  argument('admin', 'Mutation.adminUpdateFeedback', 'status', feedbackUpdateSchema.shape.status),
  argument('admin', 'Query.sourceUsage', 'granularity', sourceUsageQuerySchema.shape.granularity),
  argument('admin', 'Query.countryUsage', 'granularity', countryUsageQuerySchema.shape.granularity),
];

/** `subgraph/Type` → why the type has no REST shape to pair with. */
export const TYPES_WITHOUT_REST_SHAPE: Readonly<Record<string, string>> = {
  'legal-data/CitedByYear': "GraphQL only (Document.citedByPerYear, the document page's timeline): no REST route.",
  'billing/UserType': "An entity stub: the accounts subgraph's User (id) that billing extends with its billing state.",
  'teams/UserType': "An entity stub: the accounts subgraph's User (id) that teams extends with its workspace.",
  'billing/CheckoutDocumentType': "GraphQL only (the dashboard's checkout page): no REST route, typed by the CheckoutDocument interface.",
  'teams/TeamMemberUser': "A member's account, resolved in one batch per request (REST inlines email and name in the member).",
  'teams/TeamStatus': 'One type for two REST answers: MemberRemoved (status, user_id) and InviteRevoked (status, id).',
  'teams/TeamInvitePreview': "GraphQL only (the dashboard's invite page, Query.teamInvite): no REST route, typed by the InvitePreview interface.",
  'accounts/GettingStartedType': "GraphQL only (the dashboard home's checklist, MeType.getting_started): no REST route, typed by the GettingStarted interface.",
};

/** Per subgraph, `Type.field` → why the field differs from REST on purpose. */
export const DRIFT_EXCEPTIONS: Readonly<Record<string, DriftExceptions>> = {
  accounts: {
    'MeType.getting_started': "GraphQL only: the dashboard home's checklist, computed when asked (GET /auth/me does not carry it).",
  },
  'legal-data': {
    // REST serves the citator's lists as their own endpoints (GET …/cited-by, …/cites), paired above
    'Document.citedBy': 'GET /v1/documents/{…}/cited-by in REST (CitedByPage is paired with its answer).',
    'Document.cites': 'GET /v1/documents/{…}/cites in REST (Cites is paired with its answer).',
    'Document.citedByPerYear': "GraphQL only: the document page's timeline of citing documents per year (no REST route).",
    'Document.cited_by_count': "Optional in REST (only a document read carries it, not a search hit's document); GraphQL resolves it for every Document.",
  },
  billing: {
    // one GraphQL query, plans(audience), serves both REST answers: BillingPlans and AudiencePlans
    'PlansType.audience': 'Null for the legacy catalogue (GET /v1/billing/plans without an audience).',
    'PlansType.title': 'Null for the legacy catalogue.',
    'PlanType.order': 'Null in the legacy catalogue, whose plans have no position.',
    'PlanType.recommended': 'Null in the legacy catalogue.',
  },
  teams: {
    'Workspace.id': "Non-null: GraphQL's Workspace is an entity keyed by id, and the personal workspace (REST id null) is answered as null.",
    'Workspace.kind': 'Not served: only team workspaces are Workspace entities (kind is always team).',
    'TeamMember.email': 'In TeamMember.user (TeamMemberUser), resolved in one batch per request.',
    'TeamMember.name': 'In TeamMember.user (TeamMemberUser).',
    'TeamMember.user': "The member's account, in place of REST's email and name.",
  },
  admin: {
    'AdminAuditEntryType.before': 'Served as before_json: the JSON text of the value (the admin subgraph has no JSON scalar).',
    'AdminAuditEntryType.after': 'Served as after_json, as before.',
    'AdminAuditEntryType.before_json': "REST's before as JSON text.",
    'AdminAuditEntryType.after_json': "REST's after as JSON text.",
  },
};
