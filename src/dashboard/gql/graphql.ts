/* eslint-disable */
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** The `JSONObject` scalar type represents JSON objects as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
  join__DirectiveArguments: { input: any; output: any; }
  join__FieldSet: { input: any; output: any; }
  link__Import: { input: any; output: any; }
};

/** An audit log entry; before and after as JSON text. */
export type AdminAuditEntryType = {
  action: Scalars['String']['output'];
  actor_email: Scalars['String']['output'];
  actor_user_id: Maybe<Scalars['String']['output']>;
  after_json: Maybe<Scalars['String']['output']>;
  before_json: Maybe<Scalars['String']['output']>;
  created_at: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  reason: Maybe<Scalars['String']['output']>;
  /** A user target's current e-mail address (null once erased, and for other targets). */
  target_email: Maybe<Scalars['String']['output']>;
  target_id: Scalars['String']['output'];
  target_type: Scalars['String']['output'];
};

export type AdminAuditPageType = {
  items: Array<AdminAuditEntryType>;
  total: Scalars['Int']['output'];
};

export type AdminFeedbackListType = {
  reports: Array<AdminFeedbackReportType>;
  status: Scalars['String']['output'];
  total: Scalars['Int']['output'];
};

export type AdminFeedbackReportType = {
  channel: Scalars['String']['output'];
  created_at: Scalars['String']['output'];
  description: Scalars['String']['output'];
  forwarded_url: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  issue_type: Scalars['String']['output'];
  source: Scalars['String']['output'];
  source_id: Maybe<Scalars['String']['output']>;
  status: Scalars['String']['output'];
  status_note: Maybe<Scalars['String']['output']>;
  updated_at: Maybe<Scalars['String']['output']>;
  user_id: Maybe<Scalars['String']['output']>;
};

export type AdminOverrideType = {
  plan: Scalars['String']['output'];
  reason: Maybe<Scalars['String']['output']>;
  set_at: Scalars['String']['output'];
};

export type AdminPlanOverrideType = {
  plan: Scalars['String']['output'];
  reason: Maybe<Scalars['String']['output']>;
  set_at: Scalars['String']['output'];
  set_by_user_id: Maybe<Scalars['String']['output']>;
};

/** GET /v1/admin/stats. */
export type AdminStatsType = {
  active_users_7d: Scalars['Int']['output'];
  active_users_30d: Scalars['Int']['output'];
  daily_requests: Array<DailyRequestsType>;
  new_users_7d: Scalars['Int']['output'];
  new_users_30d: Scalars['Int']['output'];
  requests_today: Scalars['Int']['output'];
  top_endpoints: Array<EndpointCountType>;
  total_users: Scalars['Int']['output'];
};

/** The order of the admin user list. */
export type AdminUserSort =
  | 'created_at'
  | 'email'
  | 'requests';

/** A user as GET /v1/admin/users lists it; request counts are batched per page (DataLoader). */
export type AdminUserType = {
  created_at: Scalars['String']['output'];
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  is_admin: Scalars['Boolean']['output'];
  last_active_at: Maybe<Scalars['String']['output']>;
  name: Maybe<Scalars['String']['output']>;
  override: Maybe<AdminPlanOverrideType>;
  plan: Scalars['String']['output'];
  requests_period: Scalars['Int']['output'];
  requests_total: Scalars['Int']['output'];
  role: Maybe<Scalars['String']['output']>;
  subscription_plan: Scalars['String']['output'];
  workspace: Maybe<AdminWorkspaceRefType>;
};

export type AdminUsersPageType = {
  limit: Scalars['Int']['output'];
  offset: Scalars['Int']['output'];
  sort: Scalars['String']['output'];
  total: Scalars['Int']['output'];
  users: Array<AdminUserType>;
};

export type AdminWorkspaceRefType = {
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** Periods of an analytics answer, in UTC: days, ISO weeks (from Monday), calendar months. */
export type AnalyticsGranularity =
  | 'DAY'
  | 'MONTH'
  | 'WEEK';

/** An API key record (the full key only in createKey); revoked keys stay listed. */
export type ApiKeyType = {
  created_at: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  key_prefix: Scalars['String']['output'];
  /** Its creation time until it is first used. */
  last_used_at: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** Revoked keys stay listed and no longer authenticate. */
  revoked: Scalars['Boolean']['output'];
};

/** A role a member can be given. */
export type AssignableRole =
  | 'admin'
  | 'member';

/** Who a plan catalogue is written for. */
export type Audience =
  | 'developer'
  | 'legal_professional';

export type AudienceType = {
  audience: Scalars['String']['output'];
};

/** An audit log entry's action; `.` written `_` (user_erase is user.erase). */
export type AuditAction =
  | 'feedback_mark_forwarded'
  | 'feedback_status'
  | 'user_erase'
  | 'user_partner_remove'
  | 'user_partner_scope'
  | 'user_plan_override';

/** AutoTopupRequest. */
export type AutoTopupInput = {
  amountUsd?: InputMaybe<Scalars['Int']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  thresholdUsd?: InputMaybe<Scalars['Int']['input']>;
};

export type AutoTopupSettingsType = {
  amount_usd: Scalars['Int']['output'];
  enabled: Scalars['Boolean']['output'];
  threshold_usd: Scalars['Int']['output'];
};

export type AutoTopupType = {
  amount_usd: Scalars['Int']['output'];
  enabled: Scalars['Boolean']['output'];
  last_failure: Maybe<FailureType>;
  threshold_usd: Scalars['Int']['output'];
};

/** How often a subscription is billed. */
export type BillingInterval =
  | 'monthly'
  | 'yearly';

/** GET /v1/billing/status. */
export type BillingStatusType = {
  /** An administrator's plan override; it wins over the subscription while set. */
  admin_override: Maybe<AdminOverrideType>;
  audience: Maybe<Scalars['String']['output']>;
  billing_enabled: Scalars['Boolean']['output'];
  credits: CreditsType;
  plan: Scalars['String']['output'];
  subscription: Maybe<SubscriptionType>;
  /** The team workspace whose plan this account uses as a member; null for the owner and outside a team. */
  team_plan: Maybe<TeamPlanType>;
  workspace: Maybe<WorkspaceType>;
};

/** A legal document a checkout asks assent to, at its current version. */
export type CheckoutDocumentType = {
  /** accept (agreements) or acknowledge (the privacy notice). */
  assent: Scalars['String']['output'];
  key: Scalars['String']['output'];
  title: Scalars['String']['output'];
  version: Scalars['String']['output'];
};

/** CheckoutRequest. */
export type CheckoutInput = {
  audience?: InputMaybe<Audience>;
  interval?: InputMaybe<BillingInterval>;
  legalAccepted?: InputMaybe<Scalars['Boolean']['input']>;
  plan: PaidPlan;
  promoCode?: InputMaybe<Scalars['String']['input']>;
  quantity?: InputMaybe<Scalars['Int']['input']>;
  workspaceName?: InputMaybe<Scalars['String']['input']>;
};

export type CheckoutUrlType = {
  checkout_url: Scalars['String']['output'];
};

export type CheckoutVerificationType = {
  credits_usd: Maybe<Scalars['Float']['output']>;
  interval: Maybe<Scalars['String']['output']>;
  mode: Scalars['String']['output'];
  payment_status: Scalars['String']['output'];
  plan: Maybe<Scalars['String']['output']>;
  quantity: Maybe<Scalars['Int']['output']>;
  session_id: Scalars['String']['output'];
  status: Maybe<Scalars['String']['output']>;
  workspace_id: Maybe<Scalars['String']['output']>;
};

/** A resolved citation. */
export type CitationLink = {
  /** The act came from context. */
  carried: Scalars['Boolean']['output'];
  citation: Scalars['String']['output'];
  cited: CitedDocument;
  end: Scalars['Int']['output'];
  pinpoint: Scalars['String']['output'];
  start: Scalars['Int']['output'];
};

/** One citing document, with the passage of its first citation of the document. */
export type CitedByItem = {
  citation: Scalars['String']['output'];
  document: CitingDocument;
  end: Scalars['Int']['output'];
  /** Where the citation stands in `snippet`. */
  highlight: TextSpan;
  /** How many times the document cites it. */
  occurrences: Scalars['Int']['output'];
  /** Sub-units as written; empty when none. */
  pinpoint: Scalars['String']['output'];
  snippet: Scalars['String']['output'];
  start: Scalars['Int']['output'];
};

/** The documents citing a document, a page at a time (same as GET …/cited-by). */
export type CitedByPage = {
  /** Citing documents in all, before filters. */
  cited_by_count: Scalars['Int']['output'];
  items: Array<CitedByItem>;
  /** Pass as `after` for the next page. */
  next_cursor: Maybe<Scalars['String']['output']>;
  /** Citing documents that pass the filters. */
  total: Scalars['Int']['output'];
};

/** `date`: newest first; `court_tier`: highest court first, then newest; `relevance`: passages holding most words of `q` first, then by court tier. */
export type CitedBySort =
  | 'court_tier'
  | 'date'
  | 'relevance';

/** How many documents citing a document date from one year. */
export type CitedByYear = {
  count: Scalars['Int']['output'];
  /** Null: citing documents without a date. */
  year: Maybe<Scalars['Int']['output']>;
};

/** The document a citation resolves to. */
export type CitedDocument = {
  id: Scalars['String']['output'];
  source: Scalars['String']['output'];
  source_id: Scalars['String']['output'];
};

/** What a document cites (same as GET …/cites). */
export type Cites = {
  /** In order of appearance. */
  links: Array<CitationLink>;
  /** In order of appearance. */
  unresolved: Array<UnresolvedCitation>;
};

/** A citing document's metadata. */
export type CitingDocument = {
  country: Scalars['String']['output'];
  court: Maybe<Scalars['String']['output']>;
  court_tier: Maybe<Scalars['Int']['output']>;
  date: Maybe<Scalars['String']['output']>;
  id: Scalars['String']['output'];
  language: Maybe<Scalars['String']['output']>;
  namespace: Scalars['String']['output'];
  source: Scalars['String']['output'];
  source_id: Scalars['String']['output'];
  title: Scalars['String']['output'];
};

export type CountryInfo = {
  case_law_sources: Scalars['Int']['output'];
  code: Scalars['String']['output'];
  doctrine_sources: Scalars['Int']['output'];
  legislation_sources: Scalars['Int']['output'];
  total_documents: Scalars['Int']['output'];
};

export type CountryUsagePeriodType = {
  country: Scalars['String']['output'];
  distinctAccounts: SuppressibleCountType;
  documentsFetched: SuppressibleCountType;
  /** Hits of the country's documents. */
  hits: SuppressibleCountType;
  periodEnd: Scalars['String']['output'];
  periodStart: Scalars['String']['output'];
  resolutions: SuppressibleCountType;
  /** Searches filtered by the country. */
  searches: SuppressibleCountType;
};

/** Usage of countries per period. */
export type CountryUsageType = {
  from: Scalars['String']['output'];
  granularity: AnalyticsGranularity;
  periods: Array<CountryUsagePeriodType>;
  to: Scalars['String']['output'];
};

export type CourtInfo = {
  country: Scalars['String']['output'];
  court: Scalars['String']['output'];
  court_tier: Maybe<Scalars['Int']['output']>;
  source: Scalars['String']['output'];
  total_documents: Scalars['Int']['output'];
};

export type CoverageTotals = {
  documents: Scalars['Int']['output'];
  patterns: Scalars['Int']['output'];
  resolvable_documents: Scalars['Int']['output'];
  sources: Scalars['Int']['output'];
  sources_with_patterns: Scalars['Int']['output'];
};

export type CreatedApiKeyType = {
  created_at: Scalars['String']['output'];
  /** True when the account has not proven its e-mail address: the key is revoked when the address is verified or the password reset. */
  ends_when_email_verified: Maybe<Scalars['Boolean']['output']>;
  id: Scalars['ID']['output'];
  /** The full key: shown once. */
  key: Scalars['String']['output'];
  key_prefix: Scalars['String']['output'];
  /** Its creation time until it is first used. */
  last_used_at: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** Revoked keys stay listed and no longer authenticate. */
  revoked: Scalars['Boolean']['output'];
  /** Says the same in a sentence, when ends_when_email_verified is set. */
  warning: Maybe<Scalars['String']['output']>;
};

export type CreditsType = {
  auto_topup: AutoTopupSettingsType;
  auto_topup_last_failure: Maybe<FailureType>;
  balance_usd: Scalars['Float']['output'];
};

export type DailyRequestsType = {
  date: Scalars['String']['output'];
  requests: Scalars['Int']['output'];
};

export type DateRange = {
  max: Maybe<Scalars['String']['output']>;
  min: Maybe<Scalars['String']['output']>;
};

/** A full document of the corpus. Entity: other subgraphs reference it by id. */
export type Document = {
  authority: Maybe<Scalars['String']['output']>;
  canonical_path: Maybe<Scalars['String']['output']>;
  case_number: Maybe<Scalars['String']['output']>;
  chamber: Maybe<Scalars['String']['output']>;
  /** The documents citing this one: filters, sort, cursor paging (GET …/cited-by). The first citedBy of a document read in the same operation comes with that read; another is billed as a document read. */
  citedBy: CitedByPage;
  /** Documents citing this one per year of the citing document (oldest first, undated last), with the citedBy filters. Not billed. */
  citedByPerYear: Array<CitedByYear>;
  /** How many documents of the corpus cite this one (citator). */
  cited_by_count: Scalars['Int']['output'];
  /** What this document cites: links in order of appearance, then the unresolved citations (GET …/cites). Comes with the read of the document in the same operation (the first cites of it); another is billed as a document read. */
  cites: Cites;
  country: Scalars['String']['output'];
  court: Maybe<Scalars['String']['output']>;
  court_tier: Maybe<Scalars['Int']['output']>;
  date: Maybe<Scalars['String']['output']>;
  decision_number: Maybe<Scalars['String']['output']>;
  decision_type: Maybe<Scalars['String']['output']>;
  document_type: Maybe<Scalars['String']['output']>;
  ecli: Maybe<Scalars['String']['output']>;
  effective_date: Maybe<Scalars['String']['output']>;
  eli_uri: Maybe<Scalars['String']['output']>;
  expiry_date: Maybe<Scalars['String']['output']>;
  /** Source-specific fields beyond the common model. */
  extra: Scalars['JSONObject']['output'];
  granularity: Maybe<Scalars['String']['output']>;
  /** <source>/<source_id>, e.g. DE/GesetzeImInternet/bgb/823. */
  id: Scalars['ID']['output'];
  identifier: Maybe<Scalars['String']['output']>;
  jurisdiction: Maybe<Scalars['String']['output']>;
  language: Maybe<Scalars['String']['output']>;
  /** case_law, legislation or doctrine */
  namespace: Scalars['String']['output'];
  parent_source_id: Maybe<Scalars['String']['output']>;
  short_names: Array<Scalars['String']['output']>;
  /** <country>/<source_name> */
  source: Scalars['String']['output'];
  source_id: Scalars['String']['output'];
  status: Maybe<Scalars['String']['output']>;
  subdivision: Maybe<Scalars['String']['output']>;
  summary: Maybe<Scalars['String']['output']>;
  text: Scalars['String']['output'];
  title: Scalars['String']['output'];
  unit_number: Maybe<Scalars['String']['output']>;
  unit_type: Maybe<Scalars['String']['output']>;
  url: Maybe<Scalars['String']['output']>;
};


/** A full document of the corpus. Entity: other subgraphs reference it by id. */
export type DocumentCitedByArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  country: InputMaybe<Scalars['String']['input']>;
  court: InputMaybe<Scalars['String']['input']>;
  courtTier: InputMaybe<Scalars['Int']['input']>;
  dateEnd: InputMaybe<Scalars['String']['input']>;
  dateStart: InputMaybe<Scalars['String']['input']>;
  first: InputMaybe<Scalars['Int']['input']>;
  includeArticles: InputMaybe<Scalars['Boolean']['input']>;
  namespace: InputMaybe<Namespace>;
  q: InputMaybe<Scalars['String']['input']>;
  sort: InputMaybe<CitedBySort>;
};


/** A full document of the corpus. Entity: other subgraphs reference it by id. */
export type DocumentCitedByPerYearArgs = {
  country: InputMaybe<Scalars['String']['input']>;
  court: InputMaybe<Scalars['String']['input']>;
  courtTier: InputMaybe<Scalars['Int']['input']>;
  dateEnd: InputMaybe<Scalars['String']['input']>;
  dateStart: InputMaybe<Scalars['String']['input']>;
  namespace: InputMaybe<Namespace>;
};

export type EndpointCountType = {
  endpoint: Scalars['String']['output'];
  requests: Scalars['Int']['output'];
};

export type FailureType = {
  at: Scalars['String']['output'];
  reason: Scalars['String']['output'];
};

/** Feedback reports of one status, or all. */
export type FeedbackStatusFilter =
  | 'all'
  | 'dismissed'
  | 'forwarded'
  | 'open'
  | 'resolved';

/** The dashboard home's getting-started checklist: what the service observed of the account. */
export type GettingStartedType = {
  /** An OAuth grant (an MCP client connected through /oauth) has not expired. */
  agent_connected: Scalars['Boolean']['output'];
  /** When the first billed call was recorded (any door), or null. */
  first_call_at: Maybe<Scalars['String']['output']>;
  /** An API key that is not revoked exists. */
  has_key: Scalars['Boolean']['output'];
  /** The e-mail address is proven. */
  verified: Scalars['Boolean']['output'];
};

export type IndexStats = {
  chunks: Scalars['Int']['output'];
  chunks_with_vectors: Scalars['Int']['output'];
  embedding_model: Maybe<Scalars['String']['output']>;
  ready: Scalars['Boolean']['output'];
};

/** GET /v1/billing/invoices. */
export type InvoiceListType = {
  /** Older invoices exist: the customer portal lists them all. */
  has_more: Scalars['Boolean']['output'];
  invoices: Array<InvoiceType>;
};

/** One invoice of the caller's Stripe customer. */
export type InvoiceType = {
  amount_paid_usd: Scalars['Float']['output'];
  created_at: Scalars['String']['output'];
  currency: Scalars['String']['output'];
  /** Stripe's page of the invoice (view, pay, download). */
  hosted_invoice_url: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  invoice_pdf: Maybe<Scalars['String']['output']>;
  number: Maybe<Scalars['String']['output']>;
  period_end: Maybe<Scalars['String']['output']>;
  period_start: Maybe<Scalars['String']['output']>;
  status: Maybe<Scalars['String']['output']>;
  total_usd: Scalars['Float']['output'];
};

/** The key revocation response (DELETE /v1/keys/{key_id}). */
export type KeyRevocationType = {
  id: Scalars['ID']['output'];
  status: Scalars['String']['output'];
};

export type LegalAcceptanceType = {
  accepted: Scalars['Boolean']['output'];
  accepted_at: Maybe<Scalars['String']['output']>;
  current_terms_version: Scalars['String']['output'];
  terms_version: Maybe<Scalars['String']['output']>;
};

export type Manifest = {
  api_version: Scalars['String']['output'];
  collections: Array<ManifestCollection>;
  description: Scalars['String']['output'];
  endpoints: Array<Scalars['String']['output']>;
  generated_at: Scalars['String']['output'];
  jurisdictions: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  search: ManifestSearch;
  sources: Array<ManifestSource>;
  version: Scalars['String']['output'];
};

export type ManifestCollection = {
  /** case_law, legislation or doctrine */
  namespace: Scalars['String']['output'];
  sources: Scalars['Int']['output'];
  total_documents: Scalars['Int']['output'];
};

export type ManifestSearch = {
  embedding_model: Maybe<Scalars['String']['output']>;
  engine: Scalars['String']['output'];
  hybrid: Scalars['Boolean']['output'];
};

export type ManifestSource = {
  commercial_use: Maybe<Scalars['Boolean']['output']>;
  country: Scalars['String']['output'];
  license_id: Maybe<Scalars['String']['output']>;
  license_name: Maybe<Scalars['String']['output']>;
  license_url: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  source: Scalars['String']['output'];
  total_documents: Scalars['Int']['output'];
};

/** The signed-in account (GET /auth/me). */
export type MeType = {
  /** The getting-started checklist of the dashboard's home. */
  getting_started: GettingStartedType;
  legal_acceptance: LegalAcceptanceType;
  plan: Scalars['String']['output'];
  user: UserType;
  workspace_role: Scalars['String']['output'];
};

export type Mutation = {
  /** DELETE /v1/admin/users/{user_id}: erasure by the deletion rules. */
  adminEraseUser: UserErasureResultType;
  /** POST /v1/admin/feedback/{report_id}/mark-forwarded. */
  adminMarkFeedbackForwarded: AdminFeedbackReportType;
  /** DELETE /v1/admin/users/{user_id}/partner. */
  adminRemovePartner: PartnerRemovalType;
  /** PUT /v1/admin/users/{user_id}/partner: makes the account a partner with this scope, or replaces it. */
  adminSetPartner: PartnerScopeType;
  /** PATCH /v1/admin/users/{user_id}: sets (plan) or removes (null) the plan override. */
  adminSetPlanOverride: PlanOverrideResultType;
  /** PATCH /v1/admin/feedback/{report_id}: resolved, dismissed or forwarded. */
  adminUpdateFeedback: AdminFeedbackReportType;
  /** PATCH /v1/team/members/{member_user_id}. */
  changeMemberRole: TeamMemberRole;
  /** POST /v1/team/domains/{domain}/check: look the TXT record up now. */
  checkAllowedDomain: TeamDomain;
  /** POST /v1/billing/checkout: records the legal assent, then a Stripe Checkout Session. */
  checkout: CheckoutUrlType;
  /** Creates an API key; the full key is in this answer only. */
  createKey: CreatedApiKeyType;
  /** POST /v1/billing/credit-topups/checkout. */
  creditTopupCheckout: CheckoutUrlType;
  /** DELETE /v1/team/join-link. */
  disableJoinLink: TeamJoinLinkResult;
  /** POST /v1/team/invites. */
  inviteMembers: TeamInvitesResult;
  /** POST /v1/team/join. */
  joinTeam: TeamJoinResult;
  /** POST /v1/billing/portal. */
  portalSession: PortalSessionType;
  /** DELETE /v1/team/members/{member_user_id}: leave or remove. */
  removeMember: TeamStatus;
  /** Renames one of the caller's keys (PATCH /v1/keys/{key_id}); NOT_FOUND for any other id. */
  renameKey: ApiKeyType;
  /** DELETE /v1/team/invites/{invite_id}. */
  revokeInvite: TeamStatus;
  /** Revokes one of the caller's keys at once (it stays listed as revoked); NOT_FOUND for any other id. */
  revokeKey: KeyRevocationType;
  /** Revokes the caller's authorisation of a client: its access and refresh tokens end at once; NOT_FOUND when there is none. */
  revokeOAuthGrant: OAuthGrantRevocationType;
  /** POST /v1/team/join-link: create or rotate. */
  rotateJoinLink: TeamJoinLinkResult;
  /** PUT /v1/team/domains. */
  setAllowedDomains: TeamDomains;
  /** POST /v1/billing/audience. */
  setAudience: AudienceType;
  /** PUT /v1/billing/credit-topups/auto. */
  setAutoTopup: AutoTopupType;
  /** POST /v1/team/seats (owner only). */
  setSeats: TeamSeats;
  /** POST /v1/billing/checkout/verify. */
  verifyCheckout: CheckoutVerificationType;
};


export type MutationAdminEraseUserArgs = {
  reason: InputMaybe<Scalars['String']['input']>;
  userId: Scalars['String']['input'];
};


export type MutationAdminMarkFeedbackForwardedArgs = {
  reportId: Scalars['String']['input'];
  url: Scalars['String']['input'];
};


export type MutationAdminRemovePartnerArgs = {
  reason: InputMaybe<Scalars['String']['input']>;
  userId: Scalars['String']['input'];
};


export type MutationAdminSetPartnerArgs = {
  countries: InputMaybe<Array<Scalars['String']['input']>>;
  reason: InputMaybe<Scalars['String']['input']>;
  sources: InputMaybe<Array<Scalars['String']['input']>>;
  userId: Scalars['String']['input'];
};


export type MutationAdminSetPlanOverrideArgs = {
  plan: InputMaybe<OverridePlan>;
  reason: InputMaybe<Scalars['String']['input']>;
  userId: Scalars['String']['input'];
};


export type MutationAdminUpdateFeedbackArgs = {
  note: InputMaybe<Scalars['String']['input']>;
  reportId: Scalars['String']['input'];
  status: SettableFeedbackStatus;
};


export type MutationChangeMemberRoleArgs = {
  memberUserId: Scalars['String']['input'];
  role: AssignableRole;
};


export type MutationCheckAllowedDomainArgs = {
  domain: Scalars['String']['input'];
};


export type MutationCheckoutArgs = {
  input: CheckoutInput;
};


export type MutationCreateKeyArgs = {
  name: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreditTopupCheckoutArgs = {
  amountUsd: Scalars['Int']['input'];
};


export type MutationInviteMembersArgs = {
  emails: Array<Scalars['String']['input']>;
};


export type MutationJoinTeamArgs = {
  token: Scalars['String']['input'];
};


export type MutationRemoveMemberArgs = {
  memberUserId: Scalars['String']['input'];
};


export type MutationRenameKeyArgs = {
  id: Scalars['ID']['input'];
  name: Scalars['String']['input'];
};


export type MutationRevokeInviteArgs = {
  inviteId: Scalars['String']['input'];
};


export type MutationRevokeKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRevokeOAuthGrantArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSetAllowedDomainsArgs = {
  domains: Array<Scalars['String']['input']>;
};


export type MutationSetAudienceArgs = {
  audience: Audience;
};


export type MutationSetAutoTopupArgs = {
  input: AutoTopupInput;
};


export type MutationSetSeatsArgs = {
  quantity: Scalars['Int']['input'];
};


export type MutationVerifyCheckoutArgs = {
  sessionId: Scalars['String']['input'];
};

/** A collection of the corpus: case_law, legislation or doctrine. */
export type Namespace =
  | 'case_law'
  | 'doctrine'
  | 'legislation';

/** Document counts per namespace. */
export type NamespaceCounts = {
  case_law: Scalars['Int']['output'];
  doctrine: Scalars['Int']['output'];
  legislation: Scalars['Int']['output'];
};

/** DELETE /v1/oauth/grants/{id}. */
export type OAuthGrantRevocationType = {
  id: Scalars['ID']['output'];
  status: Scalars['String']['output'];
};

/** An OAuth client the user authorised (GET /v1/oauth/grants). */
export type OAuthGrantType = {
  authorized_at: Scalars['String']['output'];
  client_id: Scalars['String']['output'];
  client_name: Maybe<Scalars['String']['output']>;
  client_uri: Maybe<Scalars['String']['output']>;
  expires_at: Maybe<Scalars['String']['output']>;
  /** The client id: the handle to revoke with. */
  id: Scalars['ID']['output'];
  resources: Array<Scalars['String']['output']>;
  scopes: Array<Scalars['String']['output']>;
};

/** A plan slug of the catalogue. */
export type OverridePlan =
  | 'developer_pro'
  | 'developer_scale'
  | 'free'
  | 'professional'
  | 'professional_plus';

/** A paid plan slug of the catalogue. */
export type PaidPlan =
  | 'developer_pro'
  | 'developer_scale'
  | 'professional'
  | 'professional_plus';

/** What was understood of the reference. */
export type ParsedReference = {
  act: Maybe<Scalars['String']['output']>;
  act_id: Maybe<Scalars['String']['output']>;
  case_number: Maybe<Scalars['String']['output']>;
  country: Maybe<Scalars['String']['output']>;
  court: Maybe<Scalars['String']['output']>;
  date: Maybe<Scalars['String']['output']>;
  following: Scalars['Boolean']['output'];
  identifier: Maybe<Scalars['String']['output']>;
  identifier_kind: Maybe<Scalars['String']['output']>;
  other_units: Array<Scalars['String']['output']>;
  sub_units: Array<Scalars['String']['output']>;
  unit_number: Maybe<Scalars['String']['output']>;
  unit_type: Maybe<Scalars['String']['output']>;
};

/** DELETE /v1/admin/users/{user_id}/partner. */
export type PartnerRemovalType = {
  removed: Scalars['Boolean']['output'];
  user_id: Scalars['String']['output'];
};

/** PUT /v1/admin/users/{user_id}/partner. */
export type PartnerScopeType = {
  countries: Array<Scalars['String']['output']>;
  sources: Array<Scalars['String']['output']>;
  updated_at: Scalars['String']['output'];
  user_id: Scalars['String']['output'];
};

export type PlanLimitsType = {
  per_day: Maybe<Scalars['Int']['output']>;
  per_minute: Scalars['Int']['output'];
  per_period: Maybe<Scalars['Int']['output']>;
};

export type PlanOverrideResultType = {
  override: Maybe<AdminPlanOverrideType>;
  plan: Scalars['String']['output'];
  subscription_plan: Scalars['String']['output'];
  user_id: Scalars['ID']['output'];
};

export type PlanPriceIdsType = {
  monthly: Maybe<Scalars['String']['output']>;
  yearly: Maybe<Scalars['String']['output']>;
};

export type PlanPricesType = {
  currency: Scalars['String']['output'];
  monthly: Scalars['Float']['output'];
  yearly: Scalars['Float']['output'];
};

/** A purchasable plan (GET /v1/billing/plans); the audience fields only in an audience catalogue. */
export type PlanType = {
  features: Array<Scalars['String']['output']>;
  limits: PlanLimitsType;
  name: Scalars['String']['output'];
  order: Maybe<Scalars['Int']['output']>;
  per_seat: Scalars['Boolean']['output'];
  /** Only when billing is enabled. */
  price_ids: Maybe<PlanPriceIdsType>;
  prices: PlanPricesType;
  recommended: Maybe<Scalars['Boolean']['output']>;
  slug: Scalars['String']['output'];
  tagline: Maybe<Scalars['String']['output']>;
};

export type PlansType = {
  audience: Maybe<Scalars['String']['output']>;
  plans: Array<PlanType>;
  title: Maybe<Scalars['String']['output']>;
};

export type PortalSessionType = {
  url: Scalars['String']['output'];
};

/** GET /v1/billing/promo. */
export type PromoType = {
  amount_off: Maybe<Scalars['Float']['output']>;
  code: Scalars['String']['output'];
  currency: Maybe<Scalars['String']['output']>;
  duration: Maybe<Scalars['String']['output']>;
  duration_in_months: Maybe<Scalars['Int']['output']>;
  expires_at: Maybe<Scalars['String']['output']>;
  percent_off: Maybe<Scalars['Float']['output']>;
  plans: Maybe<Array<Scalars['String']['output']>>;
  reason: Maybe<Scalars['String']['output']>;
  seats_remaining: Maybe<Scalars['Int']['output']>;
  valid: Scalars['Boolean']['output'];
};

export type Query = {
  /** GET /v1/admin/audit (administrators only). */
  adminAudit: Maybe<AdminAuditPageType>;
  /** GET /v1/admin/feedback (administrators only). */
  adminFeedback: Maybe<AdminFeedbackListType>;
  /** GET /v1/admin/users/{user_id}/partner: a user's partner scope, administrators only; null when the user is not a partner. */
  adminPartner: Maybe<PartnerScopeType>;
  /** GET /v1/admin/stats (administrators only). */
  adminStats: Maybe<AdminStatsType>;
  /** GET /v1/admin/users/{user_id}/endpoints (administrators only). */
  adminUserEndpoints: Maybe<UserEndpointsType>;
  /** GET /v1/admin/users (administrators only). */
  adminUsers: Maybe<AdminUsersPageType>;
  /** GET /v1/billing/credit-topups/auto. */
  autoTopup: Maybe<AutoTopupType>;
  /** GET /v1/billing/status. */
  billingStatus: Maybe<BillingStatusType>;
  /** The legal documents (and versions) a checkout of the plan asks assent to: the data processing agreement only for per-seat plans. */
  checkoutDocuments: Array<CheckoutDocumentType>;
  /** Jurisdictions with catalogued sources. */
  countries: Array<CountryInfo>;
  /** Per country and period: searches filtered by it, hits, documents fetched, resolutions, distinct accounts (partners: their countries). */
  countryUsage: Maybe<CountryUsageType>;
  /** Courts with document counts, optionally for one country or source. */
  courts: Array<CourtInfo>;
  /** A full document; null when unknown. */
  document: Maybe<Document>;
  /** Filter values present in a source; NOT_FOUND for an unknown source. */
  filters: SourceFilters;
  /** GET /v1/billing/invoices: the caller's own invoices, newest first, with Stripe's hosted page of each. */
  invoices: Maybe<InvoiceListType>;
  /** The caller's API keys, newest first; revoked ones stay listed with revoked: true. */
  keys: Maybe<Array<ApiKeyType>>;
  /** What this service holds and offers. */
  manifest: Manifest;
  /** The signed-in account; UNAUTHENTICATED without credentials. */
  me: Maybe<MeType>;
  /** The OAuth clients (MCP agents) the caller authorised, one per client (GET /v1/oauth/grants). */
  oauthGrants: Maybe<Array<OAuthGrantType>>;
  /** The caller's own partner scope; null when the caller is not a partner. Not counted: the caller's own record, like `me`. */
  partnerScope: Maybe<PartnerScopeType>;
  /** GET /v1/billing/plans: the legacy catalogue, or an audience catalogue. */
  plans: PlansType;
  /** GET /v1/billing/promo. */
  promo: Maybe<PromoType>;
  /** Resolves a citation to exact documents (same contract as POST /v1/resolve). */
  resolve: Maybe<ResolveResponse>;
  /** Per source: whether resolve patterns reach it, how many, and its documents. */
  resolveCoverage: Maybe<ResolveCoverage>;
  /** Resolutions per country and match type (without countries: every country in scope). */
  resolverOutcomes: Maybe<ResolverOutcomesType>;
  /** Hybrid semantic + keyword search (same contract as POST /v1/search). */
  search: Maybe<SearchResponse>;
  /** Per source and period: searches returning it, hits, documents fetched, resolutions, distinct accounts (partners: their sources). */
  sourceUsage: Maybe<SourceUsageType>;
  /** Sources of a jurisdiction; NOT_FOUND when it has none. */
  sources: Array<SourceInfo>;
  /** Corpus and index statistics. */
  stats: Stats;
  /** GET /v1/team: the caller's team workspace (null in the personal workspace). */
  team: Maybe<Workspace>;
  /** The invite page's preview of an invite or join link token (no account needed; only the token's holder learns the team and the invited address). NOT_FOUND for an unknown, used, expired, revoked or rotated token. */
  teamInvite: TeamInvitePreview;
  /** The source's most fetched documents over the range. */
  topDocuments: Maybe<TopDocumentsType>;
  /** The caller's usage and limits (GET /v1/usage/me). */
  usage: Maybe<UsageType>;
  /** The caller's billed requests per API key and endpoint over a range of UTC days (GET /v1/usage/breakdown). */
  usageBreakdown: Maybe<UsageBreakdownType>;
};


export type QueryAdminAuditArgs = {
  action: InputMaybe<AuditAction>;
  limit: InputMaybe<Scalars['Int']['input']>;
  offset: InputMaybe<Scalars['Int']['input']>;
  targetId: InputMaybe<Scalars['String']['input']>;
};


export type QueryAdminFeedbackArgs = {
  limit: InputMaybe<Scalars['Int']['input']>;
  status: InputMaybe<FeedbackStatusFilter>;
};


export type QueryAdminPartnerArgs = {
  userId: Scalars['ID']['input'];
};


export type QueryAdminUserEndpointsArgs = {
  userId: Scalars['String']['input'];
};


export type QueryAdminUsersArgs = {
  limit: InputMaybe<Scalars['Int']['input']>;
  offset: InputMaybe<Scalars['Int']['input']>;
  search: InputMaybe<Scalars['String']['input']>;
  sort: InputMaybe<AdminUserSort>;
};


export type QueryCheckoutDocumentsArgs = {
  plan: PaidPlan;
};


export type QueryCountryUsageArgs = {
  countries: Array<Scalars['String']['input']>;
  from: Scalars['String']['input'];
  granularity: InputMaybe<AnalyticsGranularity>;
  to: Scalars['String']['input'];
};


export type QueryCourtsArgs = {
  country: InputMaybe<Scalars['String']['input']>;
  source: InputMaybe<Scalars['String']['input']>;
};


export type QueryDocumentArgs = {
  source: Scalars['String']['input'];
  sourceId: Scalars['String']['input'];
};


export type QueryFiltersArgs = {
  namespace: InputMaybe<Namespace>;
  source: Scalars['String']['input'];
};


export type QueryPlansArgs = {
  audience: InputMaybe<Audience>;
};


export type QueryPromoArgs = {
  code: Scalars['String']['input'];
};


export type QueryResolveArgs = {
  input: ResolveInput;
};


export type QueryResolverOutcomesArgs = {
  countries: InputMaybe<Array<Scalars['String']['input']>>;
  from: Scalars['String']['input'];
  to: Scalars['String']['input'];
};


export type QuerySearchArgs = {
  input: SearchInput;
};


export type QuerySourceUsageArgs = {
  from: Scalars['String']['input'];
  granularity: InputMaybe<AnalyticsGranularity>;
  sources: Array<Scalars['String']['input']>;
  to: Scalars['String']['input'];
};


export type QuerySourcesArgs = {
  country: Scalars['String']['input'];
  includeEmpty?: Scalars['Boolean']['input'];
};


export type QueryTeamInviteArgs = {
  token: Scalars['String']['input'];
};


export type QueryTopDocumentsArgs = {
  from: Scalars['String']['input'];
  limit: InputMaybe<Scalars['Int']['input']>;
  source: Scalars['String']['input'];
  to: Scalars['String']['input'];
};


export type QueryUsageBreakdownArgs = {
  from: InputMaybe<Scalars['String']['input']>;
  to: InputMaybe<Scalars['String']['input']>;
};

export type ResolveCoverage = {
  sources: Array<SourceCoverage>;
  totals: CoverageTotals;
};

/** The kind of document a reference names. */
export type ResolveHintType =
  | 'case_law'
  | 'legislation';

/** ResolveRequest (same contract as POST /v1/resolve). */
export type ResolveInput = {
  /** Jurisdiction the reference belongs to (DE, FR, EU, CH, CoE…). */
  hintCountry?: InputMaybe<Scalars['String']['input']>;
  /** legislation or case_law. */
  hintType?: InputMaybe<ResolveHintType>;
  /** A citation in any national style (ECLI, CELEX, `§ 823 Abs. 1 BGB`, `Article 6(1)(a) GDPR`…). */
  reference: Scalars['String']['input'];
};

export type ResolveResponse = {
  documents: Array<ResolvedDocument>;
  elapsed_ms: Scalars['Int']['output'];
  /** exact, ambiguous, pattern, title_search, fallback_search, none, error or timeout. */
  match_type: Scalars['String']['output'];
  parsed: ParsedReference;
  reference: Scalars['String']['output'];
  resolved: Scalars['Boolean']['output'];
};

export type ResolvedDocument = {
  canonical_path: Maybe<Scalars['String']['output']>;
  confidence: Scalars['Float']['output'];
  country: Scalars['String']['output'];
  id: Scalars['String']['output'];
  namespace: Scalars['String']['output'];
  source: Scalars['String']['output'];
  source_id: Scalars['String']['output'];
  title: Scalars['String']['output'];
  url: Maybe<Scalars['String']['output']>;
};

export type ResolverOutcomeType = {
  /** Null: references that resolved to no document. */
  country: Maybe<Scalars['String']['output']>;
  matchType: Scalars['String']['output'];
  resolutions: SuppressibleCountType;
};

/** Resolutions per country and match type. */
export type ResolverOutcomesType = {
  from: Scalars['String']['output'];
  outcomes: Array<ResolverOutcomeType>;
  to: Scalars['String']['output'];
};

/** How much of each hit a search returns. */
export type ResultDetail =
  | 'full_metadata'
  | 'full_text'
  | 'snippet'
  | 'summary_only';

export type SearchHit = {
  authority: Maybe<Scalars['String']['output']>;
  canonical_path: Maybe<Scalars['String']['output']>;
  case_number: Maybe<Scalars['String']['output']>;
  chamber: Maybe<Scalars['String']['output']>;
  /** Extension (full_metadata): how many documents of the corpus cite this one (Document.citedBy lists them). */
  cited_by_count: Maybe<Scalars['Int']['output']>;
  country: Maybe<Scalars['String']['output']>;
  court: Maybe<Scalars['String']['output']>;
  court_tier: Maybe<Scalars['Int']['output']>;
  date: Maybe<Scalars['String']['output']>;
  decision_number: Maybe<Scalars['String']['output']>;
  decision_type: Maybe<Scalars['String']['output']>;
  document_type: Maybe<Scalars['String']['output']>;
  ecli: Maybe<Scalars['String']['output']>;
  effective_date: Maybe<Scalars['String']['output']>;
  eli_uri: Maybe<Scalars['String']['output']>;
  expiry_date: Maybe<Scalars['String']['output']>;
  /** Length of the whole text in characters. */
  full_text_size: Maybe<Scalars['Int']['output']>;
  granularity: Maybe<Scalars['String']['output']>;
  /** <source>/<source_id>; Query.document returns the document. */
  id: Scalars['ID']['output'];
  identifier: Maybe<Scalars['String']['output']>;
  jurisdiction: Maybe<Scalars['String']['output']>;
  language: Maybe<Scalars['String']['output']>;
  /** Extension (full_metadata or explain): licence of the source (id, name, url, commercial_use). */
  license: Maybe<Scalars['JSONObject']['output']>;
  /** full_metadata: every public field of the document. */
  metadata: Maybe<Scalars['JSONObject']['output']>;
  /** case_law, legislation or doctrine */
  namespace: Scalars['String']['output'];
  parent_source_id: Maybe<Scalars['String']['output']>;
  /** Extension (full_metadata or explain): url, source_url, retrieved_at. */
  provenance: Maybe<Scalars['JSONObject']['output']>;
  quality_tier: Maybe<Scalars['Int']['output']>;
  score: Scalars['Float']['output'];
  /** Extension (full_metadata or explain): every number behind the score (REST ScoreParts). */
  score_parts: Maybe<Scalars['JSONObject']['output']>;
  snippet: Maybe<Scalars['String']['output']>;
  source: Scalars['String']['output'];
  source_id: Scalars['String']['output'];
  status: Maybe<Scalars['String']['output']>;
  subdivision: Maybe<Scalars['String']['output']>;
  summary: Maybe<Scalars['String']['output']>;
  /** full_text and full_metadata: the text, cut at the bound given by full_text_size. */
  text: Maybe<Scalars['String']['output']>;
  text_truncated: Maybe<Scalars['Boolean']['output']>;
  /** True when the text of this hit could not be loaded. */
  text_unavailable: Maybe<Scalars['Boolean']['output']>;
  title: Maybe<Scalars['String']['output']>;
  unit_number: Maybe<Scalars['String']['output']>;
  unit_type: Maybe<Scalars['String']['output']>;
  url: Maybe<Scalars['String']['output']>;
};

/** Search request: the same fields and rules as POST /v1/search. */
export type SearchInput = {
  /** Weight of the semantic leg: 1.0 = pure semantic, 0.0 = pure keyword (default 0.7). */
  alpha?: InputMaybe<Scalars['Float']['input']>;
  /** Restrict to these jurisdiction codes (DE, FR, EU, CoE...). */
  country?: InputMaybe<Array<Scalars['String']['input']>>;
  court?: InputMaybe<Scalars['String']['input']>;
  /** 1 = supreme/apex, 2 = appellate, 3 = first instance. */
  courtTier?: InputMaybe<Scalars['Int']['input']>;
  /** Inclusive upper bound on the document date (YYYY-MM-DD). */
  dateEnd?: InputMaybe<Scalars['String']['input']>;
  /** Inclusive lower bound on the document date (YYYY-MM-DD). */
  dateStart?: InputMaybe<Scalars['String']['input']>;
  /** Extension: every hit carries score_parts, license and provenance (full_metadata always does). */
  explain?: InputMaybe<Scalars['Boolean']['input']>;
  jurisdiction?: InputMaybe<Scalars['String']['input']>;
  /** ISO 639-1 code. When nothing matches in this language the search is retried once without it. */
  language?: InputMaybe<Scalars['String']['input']>;
  /** case_law, legislation or doctrine (default case_law). */
  namespace?: InputMaybe<Namespace>;
  /** Free-text query in any language. */
  q: Scalars['String']['input'];
  /** snippet, summary_only, full_text or full_metadata (default snippet). */
  resultDetail?: InputMaybe<ResultDetail>;
  /** Restrict to these sources, as <country>/<source_name>. */
  source?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Number of hits to return (1-100, default 10). */
  topK?: InputMaybe<Scalars['Int']['input']>;
};

export type SearchResponse = {
  alpha: Scalars['Float']['output'];
  /** Present when part of the search failed: ["vector"] = the vector leg failed or timed out and the hits are the keyword leg's. */
  degraded: Maybe<Array<Scalars['String']['output']>>;
  elapsed_ms: Scalars['Int']['output'];
  hits: Array<SearchHit>;
  /** case_law, legislation or doctrine */
  namespace: Scalars['String']['output'];
  query: Scalars['String']['output'];
  /** Distinct documents that matched within the candidate window. */
  total_hits: Scalars['Int']['output'];
};

/** A status an administrator sets on a feedback report. */
export type SettableFeedbackStatus =
  | 'dismissed'
  | 'forwarded'
  | 'resolved';

export type SourceCoverage = {
  act_names: Scalars['Int']['output'];
  /** Citation families the resolver supports for this source (identifiers, court_decisions, de_subunits, de_act_names, nested_articles, fr_forms, eu_acts, short_titles). */
  citation_families: Maybe<Array<Scalars['String']['output']>>;
  country: Scalars['String']['output'];
  documents: Scalars['Int']['output'];
  has_patterns: Scalars['Boolean']['output'];
  pattern_kinds: Array<Scalars['String']['output']>;
  patterns: Scalars['Int']['output'];
  resolvable_documents: Scalars['Int']['output'];
  source: Scalars['String']['output'];
};

export type SourceFilters = {
  chambers: Array<Scalars['String']['output']>;
  court_tiers: Array<Scalars['Int']['output']>;
  courts: Array<Scalars['String']['output']>;
  date_range: DateRange;
  decision_types: Array<Scalars['String']['output']>;
  jurisdictions: Array<Scalars['String']['output']>;
  languages: Array<Scalars['String']['output']>;
  /** case_law, legislation or doctrine */
  namespace: Scalars['String']['output'];
  source: Scalars['String']['output'];
  subdivisions: Array<Scalars['String']['output']>;
  total_documents: Scalars['Int']['output'];
};

export type SourceInfo = {
  blocked_reason: Maybe<Scalars['String']['output']>;
  commercial_use: Maybe<Scalars['Boolean']['output']>;
  country: Scalars['String']['output'];
  court_name: Maybe<Scalars['String']['output']>;
  data_types: Array<Scalars['String']['output']>;
  /** Earliest and latest document date; null when no document is dated. */
  date_range: Maybe<DateRange>;
  /** Documents of this source in every namespace. */
  document_count: Scalars['Int']['output'];
  documents_by_namespace: NamespaceCounts;
  license_id: Maybe<Scalars['String']['output']>;
  license_name: Maybe<Scalars['String']['output']>;
  license_url: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  notes: Maybe<Scalars['String']['output']>;
  /** <country>/<source_name> (the same value as source_id) */
  source: Scalars['String']['output'];
  /** <country>/<source_name>: the value search.source and filters take. */
  source_id: Scalars['String']['output'];
  status: Maybe<Scalars['String']['output']>;
  tier: Maybe<Scalars['Int']['output']>;
  total_documents: Scalars['Int']['output'];
  url: Maybe<Scalars['String']['output']>;
};

export type SourceUsagePeriodType = {
  distinctAccounts: SuppressibleCountType;
  documentsFetched: SuppressibleCountType;
  /** Hits of the source in those searches. */
  hits: SuppressibleCountType;
  periodEnd: Scalars['String']['output'];
  periodStart: Scalars['String']['output'];
  /** References resolved to a document of the source. */
  resolutions: SuppressibleCountType;
  /** Searches whose hits included the source. */
  searches: SuppressibleCountType;
  source: Scalars['String']['output'];
};

/** Usage of sources per period. */
export type SourceUsageType = {
  from: Scalars['String']['output'];
  granularity: AnalyticsGranularity;
  periods: Array<SourceUsagePeriodType>;
  to: Scalars['String']['output'];
};

export type Stats = {
  /** Sources in the catalogue, with or without documents. */
  catalogued_sources: Scalars['Int']['output'];
  /** Jurisdictions with at least one document. */
  countries: Scalars['Int']['output'];
  date_range: DateRange;
  /** Document count by country code. */
  documents_by_country: Scalars['JSONObject']['output'];
  /** Document count by language code. */
  documents_by_language: Scalars['JSONObject']['output'];
  documents_by_namespace: NamespaceCounts;
  generated_at: Scalars['String']['output'];
  index: IndexStats;
  /** Sources with at least one document. */
  sources: Scalars['Int']['output'];
  total_documents: Scalars['Int']['output'];
};

export type SubscriptionType = {
  cancel_at_period_end: Scalars['Boolean']['output'];
  current_period_end: Scalars['String']['output'];
  current_period_start: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  interval: Scalars['String']['output'];
  plan: Scalars['String']['output'];
  quantity: Scalars['Int']['output'];
  status: Scalars['String']['output'];
};

/** A count withheld (null, suppressed) where fewer than 5 distinct accounts made it on a day. */
export type SuppressibleCountType = {
  /** Some days of this value came from fewer than 5 distinct accounts and are left out of it. */
  suppressed: Scalars['Boolean']['output'];
  /** Null when every day of it came from fewer than 5 distinct accounts. */
  value: Maybe<Scalars['Int']['output']>;
};

/** An allowed domain and its proof state: only a verified domain auto-joins accounts. */
export type TeamDomain = {
  /** record_missing, dns_error or verified_elsewhere. */
  check_error: Maybe<Scalars['String']['output']>;
  checked_at: Maybe<Scalars['String']['output']>;
  domain: Scalars['String']['output'];
  /** pending or verified. */
  status: Scalars['String']['output'];
  verification: TeamDomainVerification;
  verified_at: Maybe<Scalars['String']['output']>;
};

/** The DNS record that proves a workspace controls a domain. */
export type TeamDomainVerification = {
  name: Scalars['String']['output'];
  /** Always TXT. */
  type: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type TeamDomains = {
  allowed_domains: Array<Scalars['String']['output']>;
  domains: Array<TeamDomain>;
};

/** A pending e-mail invite. */
export type TeamInvite = {
  created_at: Scalars['String']['output'];
  email: Scalars['String']['output'];
  expires_at: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  invited_by: Scalars['String']['output'];
};

/** What an invite or join link's token shows before joining: the team, and the invited address of an e-mail invite. */
export type TeamInvitePreview = {
  /** The invited address (e-mail invites only). */
  email: Maybe<Scalars['String']['output']>;
  expires_at: Maybe<Scalars['String']['output']>;
  /** `invite` (an e-mail invite, for one address) or `join_link` (the shareable link). */
  kind: Scalars['String']['output'];
  team_name: Scalars['String']['output'];
};

export type TeamInviteSkip = {
  email: Scalars['String']['output'];
  reason: Scalars['String']['output'];
};

export type TeamInvitesResult = {
  invites: Array<TeamInvite>;
  skipped: Array<TeamInviteSkip>;
};

export type TeamJoinLink = {
  created_at: Scalars['String']['output'];
  token: Scalars['String']['output'];
  url: Scalars['String']['output'];
};

export type TeamJoinLinkResult = {
  join_link: Maybe<TeamJoinLink>;
};

export type TeamJoinResult = {
  joined: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  role: Scalars['String']['output'];
  workspace_id: Scalars['ID']['output'];
};

export type TeamMember = {
  joined_at: Scalars['String']['output'];
  /** The member's requests in the workspace's period. */
  requests_in_period: Scalars['Int']['output'];
  role: Scalars['String']['output'];
  user: Maybe<TeamMemberUser>;
  user_id: Scalars['ID']['output'];
};

export type TeamMemberRole = {
  role: Scalars['String']['output'];
  user_id: Scalars['ID']['output'];
};

/** A member's account (resolved in one batch per request). */
export type TeamMemberUser = {
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  name: Maybe<Scalars['String']['output']>;
};

/** The team workspace whose plan a member uses (its owner pays). */
export type TeamPlanType = {
  owner_email: Scalars['String']['output'];
  role: Scalars['String']['output'];
  workspace_id: Scalars['ID']['output'];
  workspace_name: Scalars['String']['output'];
};

export type TeamSeats = {
  quantity: Scalars['Int']['output'];
  seat_limit: Scalars['Int']['output'];
};

export type TeamStatus = {
  id: Maybe<Scalars['ID']['output']>;
  status: Scalars['String']['output'];
  user_id: Maybe<Scalars['ID']['output']>;
};

/** UTF-16 offsets [start, end). */
export type TextSpan = {
  end: Scalars['Int']['output'];
  start: Scalars['Int']['output'];
};

export type TopDocumentType = {
  country: Scalars['String']['output'];
  fetches: SuppressibleCountType;
  id: Scalars['String']['output'];
  namespace: Scalars['String']['output'];
  sourceId: Scalars['String']['output'];
};

/** A source's most fetched documents. */
export type TopDocumentsType = {
  documents: Array<TopDocumentType>;
  from: Scalars['String']['output'];
  source: Scalars['String']['output'];
  /** Documents read by fewer than 5 distinct accounts on every day are left out. */
  suppressed: Scalars['Boolean']['output'];
  to: Scalars['String']['output'];
};

/** A citation resolving to nothing sure, with the reason. */
export type UnresolvedCitation = {
  citation: Scalars['String']['output'];
  end: Scalars['Int']['output'];
  /** act_not_in_corpus, unit_not_in_corpus, ambiguous, foreign_act or no_act */
  reason: Scalars['String']['output'];
  start: Scalars['Int']['output'];
};

/** One API key and endpoint of the usage breakdown; the key fields are null for requests made without a key. */
export type UsageBreakdownRowType = {
  endpoint: Scalars['String']['output'];
  key_id: Maybe<Scalars['ID']['output']>;
  key_name: Maybe<Scalars['String']['output']>;
  key_prefix: Maybe<Scalars['String']['output']>;
  key_revoked: Maybe<Scalars['Boolean']['output']>;
  requests: Scalars['Int']['output'];
};

/** GET /v1/usage/breakdown: billed requests per API key and endpoint over a range of UTC days. */
export type UsageBreakdownType = {
  from: Scalars['String']['output'];
  rows: Array<UsageBreakdownRowType>;
  to: Scalars['String']['output'];
  total: Scalars['Int']['output'];
};

export type UsageDayType = {
  count: Scalars['Int']['output'];
  date: Scalars['String']['output'];
};

/** GET /v1/usage/me. */
export type UsageType = {
  daily_history: Array<UsageDayType>;
  has_daily_limit: Scalars['Boolean']['output'];
  limits_enforced: Scalars['Boolean']['output'];
  /** Team members only: the caller's own requests in the period. */
  my_requests_in_period: Maybe<Scalars['Int']['output']>;
  /** The daily cap; plans without one report their period allowance. */
  per_day_limit: Scalars['Int']['output'];
  per_minute_limit: Scalars['Int']['output'];
  per_period_limit: Scalars['Int']['output'];
  period_end: Maybe<Scalars['String']['output']>;
  period_start: Scalars['String']['output'];
  period_type: Scalars['String']['output'];
  plan: Scalars['String']['output'];
  requests_in_period: Scalars['Int']['output'];
  requests_today: Scalars['Int']['output'];
};

export type UserEndpointsType = {
  endpoints: Array<EndpointCountType>;
  user_id: Scalars['ID']['output'];
};

export type UserErasureResultType = {
  status: Scalars['String']['output'];
  user_id: Scalars['ID']['output'];
};

/** An account (GET /auth/me `user`). */
export type UserType = {
  billing: Maybe<BillingStatusType>;
  created_at: Scalars['String']['output'];
  email: Scalars['String']['output'];
  email_verified: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  is_admin: Scalars['Boolean']['output'];
  name: Maybe<Scalars['String']['output']>;
  plan: Scalars['String']['output'];
  workspace: Maybe<Workspace>;
};

/** The caller's team workspace (GET /v1/team). */
export type Workspace = {
  allowed_domains: Array<Scalars['String']['output']>;
  /** The listed domains with their proof state. */
  domains: Array<TeamDomain>;
  id: Scalars['ID']['output'];
  invites: Array<TeamInvite>;
  /** Owner and admins only. */
  join_link: Maybe<TeamJoinLink>;
  members: Array<TeamMember>;
  name: Scalars['String']['output'];
  plan: Scalars['String']['output'];
  /** The caller's role. */
  role: Scalars['String']['output'];
  seat_limit: Scalars['Int']['output'];
  /** Members plus pending invites. */
  seats_used: Scalars['Int']['output'];
};

export type WorkspaceType = {
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  seat_limit: Scalars['Int']['output'];
};

export type Join__Graph =
  | 'ACCOUNTS'
  | 'ADMIN'
  | 'BILLING'
  | 'LEGAL_DATA'
  | 'TEAMS';

export type Link__Purpose =
  /** `EXECUTION` features provide metadata necessary for operation execution. */
  | 'EXECUTION'
  /** `SECURITY` features provide metadata necessary to securely resolve fields. */
  | 'SECURITY';

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { plan: string, workspace_role: string, user: { id: string, email: string, name: string | null, is_admin: boolean, email_verified: boolean, created_at: string }, legal_acceptance: { accepted: boolean, terms_version: string | null, current_terms_version: string } } | null };

export type PartnerScopeQueryVariables = Exact<{ [key: string]: never; }>;


export type PartnerScopeQuery = { partnerScope: { sources: Array<string>, countries: Array<string>, updated_at: string } | null };

export type CatalogueCountriesQueryVariables = Exact<{ [key: string]: never; }>;


export type CatalogueCountriesQuery = { countries: Array<{ code: string }> };

export type CatalogueSourcesQueryVariables = Exact<{
  country: Scalars['String']['input'];
}>;


export type CatalogueSourcesQuery = { sources: Array<{ source_id: string, country: string, name: string }> };

export type AdminStatsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminStatsQuery = { adminStats: { total_users: number, requests_today: number, new_users_7d: number, new_users_30d: number, active_users_7d: number, active_users_30d: number, daily_requests: Array<{ date: string, requests: number }>, top_endpoints: Array<{ endpoint: string, requests: number }> } | null };

export type AdminUsersQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  offset: InputMaybe<Scalars['Int']['input']>;
  sort: InputMaybe<AdminUserSort>;
  search: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminUsersQuery = { adminUsers: { total: number, limit: number, offset: number, sort: string, users: Array<{ id: string, email: string, name: string | null, plan: string, subscription_plan: string, role: string | null, is_admin: boolean, created_at: string, last_active_at: string | null, requests_period: number, requests_total: number, override: { plan: string, reason: string | null, set_at: string } | null, workspace: { id: string, name: string } | null }> } | null };

export type AdminUserEndpointsQueryVariables = Exact<{
  userId: Scalars['String']['input'];
}>;


export type AdminUserEndpointsQuery = { adminUserEndpoints: { user_id: string, endpoints: Array<{ endpoint: string, requests: number }> } | null };

export type AdminSetPlanOverrideMutationVariables = Exact<{
  userId: Scalars['String']['input'];
  plan: InputMaybe<OverridePlan>;
  reason: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminSetPlanOverrideMutation = { adminSetPlanOverride: { user_id: string, plan: string, subscription_plan: string, override: { plan: string, reason: string | null, set_at: string } | null } };

export type AdminEraseUserMutationVariables = Exact<{
  userId: Scalars['String']['input'];
  reason: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminEraseUserMutation = { adminEraseUser: { status: string, user_id: string } };

export type AdminFeedbackQueryVariables = Exact<{
  status: InputMaybe<FeedbackStatusFilter>;
  limit: InputMaybe<Scalars['Int']['input']>;
}>;


export type AdminFeedbackQuery = { adminFeedback: { status: string, total: number, reports: Array<{ id: string, source: string, source_id: string | null, issue_type: string, description: string, status: string, channel: string, user_id: string | null, forwarded_url: string | null, status_note: string | null, created_at: string, updated_at: string | null }> } | null };

export type AdminUpdateFeedbackMutationVariables = Exact<{
  reportId: Scalars['String']['input'];
  status: SettableFeedbackStatus;
  note: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminUpdateFeedbackMutation = { adminUpdateFeedback: { id: string, status: string, status_note: string | null, updated_at: string | null } };

export type AdminMarkFeedbackForwardedMutationVariables = Exact<{
  reportId: Scalars['String']['input'];
  url: Scalars['String']['input'];
}>;


export type AdminMarkFeedbackForwardedMutation = { adminMarkFeedbackForwarded: { id: string, status: string, forwarded_url: string | null } };

export type AdminAuditQueryVariables = Exact<{
  offset: InputMaybe<Scalars['Int']['input']>;
  limit: InputMaybe<Scalars['Int']['input']>;
  action: InputMaybe<AuditAction>;
  targetId: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminAuditQuery = { adminAudit: { total: number, items: Array<{ id: string, actor_email: string, action: string, target_type: string, target_id: string, target_email: string | null, before_json: string | null, after_json: string | null, reason: string | null, created_at: string }> } | null };

export type AdminSetPartnerMutationVariables = Exact<{
  userId: Scalars['String']['input'];
  sources: InputMaybe<Array<Scalars['String']['input']> | Scalars['String']['input']>;
  countries: InputMaybe<Array<Scalars['String']['input']> | Scalars['String']['input']>;
  reason: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminSetPartnerMutation = { adminSetPartner: { user_id: string, sources: Array<string>, countries: Array<string>, updated_at: string } };

export type AdminRemovePartnerMutationVariables = Exact<{
  userId: Scalars['String']['input'];
  reason: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminRemovePartnerMutation = { adminRemovePartner: { user_id: string, removed: boolean } };

export type AdminPartnerQueryVariables = Exact<{
  userId: Scalars['ID']['input'];
}>;


export type AdminPartnerQuery = { adminPartner: { user_id: string, sources: Array<string>, countries: Array<string>, updated_at: string } | null };

export type AdminPlanNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminPlanNamesQuery = { plans: { plans: Array<{ slug: string, name: string }> } };

export type SourceUsageQueryVariables = Exact<{
  sources: Array<Scalars['String']['input']> | Scalars['String']['input'];
  from: Scalars['String']['input'];
  to: Scalars['String']['input'];
  granularity: InputMaybe<AnalyticsGranularity>;
}>;


export type SourceUsageQuery = { sourceUsage: { from: string, to: string, granularity: AnalyticsGranularity, periods: Array<{ source: string, periodStart: string, periodEnd: string, searches: { value: number | null, suppressed: boolean }, hits: { value: number | null, suppressed: boolean }, documentsFetched: { value: number | null, suppressed: boolean }, resolutions: { value: number | null, suppressed: boolean }, distinctAccounts: { value: number | null, suppressed: boolean } }> } | null };

export type CountryUsageQueryVariables = Exact<{
  countries: Array<Scalars['String']['input']> | Scalars['String']['input'];
  from: Scalars['String']['input'];
  to: Scalars['String']['input'];
  granularity: InputMaybe<AnalyticsGranularity>;
}>;


export type CountryUsageQuery = { countryUsage: { from: string, to: string, granularity: AnalyticsGranularity, periods: Array<{ country: string, periodStart: string, periodEnd: string, searches: { value: number | null, suppressed: boolean }, hits: { value: number | null, suppressed: boolean }, documentsFetched: { value: number | null, suppressed: boolean }, resolutions: { value: number | null, suppressed: boolean }, distinctAccounts: { value: number | null, suppressed: boolean } }> } | null };

export type TopDocumentsQueryVariables = Exact<{
  source: Scalars['String']['input'];
  from: Scalars['String']['input'];
  to: Scalars['String']['input'];
  limit: InputMaybe<Scalars['Int']['input']>;
}>;


export type TopDocumentsQuery = { topDocuments: { source: string, suppressed: boolean, documents: Array<{ id: string, sourceId: string, namespace: string, country: string, fetches: { value: number | null, suppressed: boolean } }> } | null };

export type ResolverOutcomesQueryVariables = Exact<{
  countries: InputMaybe<Array<Scalars['String']['input']> | Scalars['String']['input']>;
  from: Scalars['String']['input'];
  to: Scalars['String']['input'];
}>;


export type ResolverOutcomesQuery = { resolverOutcomes: { from: string, to: string, outcomes: Array<{ country: string | null, matchType: string, resolutions: { value: number | null, suppressed: boolean } }> } | null };

export type BillingOverviewQueryVariables = Exact<{
  audience: InputMaybe<Audience>;
}>;


export type BillingOverviewQuery = { billingStatus: { billing_enabled: boolean, plan: string, audience: string | null, subscription: { id: string, plan: string, status: string, interval: string, quantity: number, current_period_start: string, current_period_end: string, cancel_at_period_end: boolean } | null, credits: { balance_usd: number, auto_topup: { enabled: boolean, threshold_usd: number, amount_usd: number }, auto_topup_last_failure: { reason: string, at: string } | null }, workspace: { id: string, name: string, seat_limit: number } | null, admin_override: { plan: string, reason: string | null, set_at: string } | null, team_plan: { workspace_id: string, workspace_name: string, role: string, owner_email: string } | null } | null, plans: { audience: string | null, title: string | null, plans: Array<{ slug: string, name: string, per_seat: boolean, features: Array<string>, order: number | null, recommended: boolean | null, tagline: string | null, prices: { monthly: number, yearly: number, currency: string }, limits: { per_minute: number, per_day: number | null, per_period: number | null } }> } };

export type CheckoutDocumentsQueryVariables = Exact<{
  plan: PaidPlan;
}>;


export type CheckoutDocumentsQuery = { checkoutDocuments: Array<{ key: string, title: string, version: string, assent: string }> };

export type PromoQueryVariables = Exact<{
  code: Scalars['String']['input'];
}>;


export type PromoQuery = { promo: { code: string, valid: boolean, reason: string | null, percent_off: number | null, amount_off: number | null, currency: string | null, duration: string | null, duration_in_months: number | null, plans: Array<string> | null } | null };

export type CheckoutMutationVariables = Exact<{
  input: CheckoutInput;
}>;


export type CheckoutMutation = { checkout: { checkout_url: string } };

export type VerifyCheckoutMutationVariables = Exact<{
  sessionId: Scalars['String']['input'];
}>;


export type VerifyCheckoutMutation = { verifyCheckout: { session_id: string, mode: string, status: string | null, payment_status: string, plan: string | null, interval: string | null, quantity: number | null, workspace_id: string | null, credits_usd: number | null } };

export type PortalSessionMutationVariables = Exact<{ [key: string]: never; }>;


export type PortalSessionMutation = { portalSession: { url: string } };

export type CreditTopupCheckoutMutationVariables = Exact<{
  amountUsd: Scalars['Int']['input'];
}>;


export type CreditTopupCheckoutMutation = { creditTopupCheckout: { checkout_url: string } };

export type SetAutoTopupMutationVariables = Exact<{
  input: AutoTopupInput;
}>;


export type SetAutoTopupMutation = { setAutoTopup: { enabled: boolean, threshold_usd: number, amount_usd: number, last_failure: { reason: string, at: string } | null } };

export type SetAudienceMutationVariables = Exact<{
  audience: Audience;
}>;


export type SetAudienceMutation = { setAudience: { audience: string } };

export type InvoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type InvoicesQuery = { invoices: { has_more: boolean, invoices: Array<{ id: string, number: string | null, status: string | null, created_at: string, period_start: string | null, period_end: string | null, total_usd: number, amount_paid_usd: number, currency: string, hosted_invoice_url: string | null, invoice_pdf: string | null }> } | null };

export type OAuthGrantsQueryVariables = Exact<{ [key: string]: never; }>;


export type OAuthGrantsQuery = { oauthGrants: Array<{ id: string, client_id: string, client_name: string | null, client_uri: string | null, scopes: Array<string>, resources: Array<string>, authorized_at: string, expires_at: string | null }> | null };

export type RevokeOAuthGrantMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RevokeOAuthGrantMutation = { revokeOAuthGrant: { id: string } };

export type HomeQueryVariables = Exact<{ [key: string]: never; }>;


export type HomeQuery = { me: { getting_started: { verified: boolean, has_key: boolean, first_call_at: string | null, agent_connected: boolean } } | null, keys: Array<{ id: string, key_prefix: string, revoked: boolean, created_at: string }> | null, usage: { plan: string, requests_today: number, requests_in_period: number, per_day_limit: number, per_period_limit: number, per_minute_limit: number, has_daily_limit: boolean, limits_enforced: boolean, period_end: string | null, daily_history: Array<{ date: string, count: number }> } | null };

export type KeysQueryVariables = Exact<{ [key: string]: never; }>;


export type KeysQuery = { keys: Array<{ id: string, name: string, key_prefix: string, created_at: string, last_used_at: string, revoked: boolean }> | null };

export type CreateKeyMutationVariables = Exact<{
  name: InputMaybe<Scalars['String']['input']>;
}>;


export type CreateKeyMutation = { createKey: { id: string, name: string, key_prefix: string, created_at: string, key: string } };

export type RevokeKeyMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RevokeKeyMutation = { revokeKey: { id: string, status: string } };

export type RenameKeyMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  name: Scalars['String']['input'];
}>;


export type RenameKeyMutation = { renameKey: { id: string, name: string } };

export type SearchDiscoveryQueryVariables = Exact<{ [key: string]: never; }>;


export type SearchDiscoveryQuery = { manifest: { collections: Array<{ namespace: string, total_documents: number, sources: number }>, sources: Array<{ source: string, country: string, name: string, total_documents: number, license_name: string | null, license_url: string | null, commercial_use: boolean | null }>, search: { engine: string, hybrid: boolean, embedding_model: string | null } }, countries: Array<{ code: string, case_law_sources: number, legislation_sources: number, doctrine_sources: number, total_documents: number }> };

export type SourceFiltersQueryVariables = Exact<{
  source: Scalars['String']['input'];
  namespace: InputMaybe<Namespace>;
}>;


export type SourceFiltersQuery = { filters: { source: string, namespace: string, courts: Array<string>, jurisdictions: Array<string>, chambers: Array<string>, languages: Array<string>, court_tiers: Array<number>, date_range: { min: string | null, max: string | null } } };

export type SearchQueryVariables = Exact<{
  input: SearchInput;
}>;


export type SearchQuery = { search: { query: string, total_hits: number, alpha: number, namespace: string, elapsed_ms: number, hits: Array<{ id: string, source: string, source_id: string, score: number, namespace: string, title: string | null, snippet: string | null, summary: string | null, url: string | null, country: string | null, language: string | null, court: string | null, court_tier: number | null, date: string | null, ecli: string | null, case_number: string | null, decision_type: string | null, authority: string | null, document_type: string | null, identifier: string | null, canonical_path: string | null, text: string | null, text_truncated: boolean | null, full_text_size: number | null, metadata: Record<string, unknown> | null, score_parts: Record<string, unknown> | null, license: Record<string, unknown> | null }> } | null };

export type DocumentViewQueryVariables = Exact<{
  source: Scalars['String']['input'];
  sourceId: Scalars['String']['input'];
  citedByFirst: Scalars['Int']['input'];
}>;


export type DocumentViewQuery = { document: { id: string, source: string, source_id: string, namespace: string, country: string, title: string, text: string, language: string | null, date: string | null, url: string | null, court: string | null, court_tier: number | null, chamber: string | null, ecli: string | null, case_number: string | null, decision_type: string | null, authority: string | null, document_type: string | null, status: string | null, identifier: string | null, eli_uri: string | null, effective_date: string | null, canonical_path: string | null, parent_source_id: string | null, summary: string | null, short_names: Array<string>, cited_by_count: number, cites: { links: Array<{ start: number, end: number, pinpoint: string, citation: string, carried: boolean, cited: { id: string, source: string, source_id: string } }>, unresolved: Array<{ start: number, end: number, citation: string, reason: string }> }, citedBy: { cited_by_count: number, total: number, next_cursor: string | null, items: Array<{ snippet: string, pinpoint: string, citation: string, occurrences: number, document: { id: string, source: string, source_id: string, namespace: string, country: string, court: string | null, court_tier: number | null, date: string | null, title: string }, highlight: { start: number, end: number } }> }, citedByPerYear: Array<{ year: number | null, count: number }> } | null };

export type DocumentCitedByQueryVariables = Exact<{
  source: Scalars['String']['input'];
  sourceId: Scalars['String']['input'];
  namespace: InputMaybe<Namespace>;
  country: InputMaybe<Scalars['String']['input']>;
  courtTier: InputMaybe<Scalars['Int']['input']>;
  dateStart: InputMaybe<Scalars['String']['input']>;
  dateEnd: InputMaybe<Scalars['String']['input']>;
  sort: InputMaybe<CitedBySort>;
  first: InputMaybe<Scalars['Int']['input']>;
  after: InputMaybe<Scalars['String']['input']>;
  withYears: Scalars['Boolean']['input'];
}>;


export type DocumentCitedByQuery = { document: { id: string, citedBy: { cited_by_count: number, total: number, next_cursor: string | null, items: Array<{ snippet: string, pinpoint: string, citation: string, occurrences: number, document: { id: string, source: string, source_id: string, namespace: string, country: string, court: string | null, court_tier: number | null, date: string | null, title: string }, highlight: { start: number, end: number } }> }, citedByPerYear?: Array<{ year: number | null, count: number }> } | null };

export type ResolveQueryVariables = Exact<{
  input: ResolveInput;
}>;


export type ResolveQuery = { resolve: { reference: string, resolved: boolean, match_type: string, elapsed_ms: number, documents: Array<{ id: string, source: string, source_id: string, title: string, url: string | null, country: string, namespace: string, canonical_path: string | null, confidence: number }>, parsed: { country: string | null, act: string | null, act_id: string | null, unit_type: string | null, unit_number: string | null, sub_units: Array<string>, court: string | null, case_number: string | null, identifier_kind: string | null, identifier: string | null } } | null };

export type TeamQueryVariables = Exact<{ [key: string]: never; }>;


export type TeamQuery = { team: { id: string, name: string, plan: string, seat_limit: number, seats_used: number, allowed_domains: Array<string>, role: string, domains: Array<{ domain: string, status: string, verified_at: string | null, checked_at: string | null, check_error: string | null, verification: { type: string, name: string, value: string } }>, members: Array<{ user_id: string, role: string, joined_at: string, requests_in_period: number, user: { id: string, email: string, name: string | null } | null }>, invites: Array<{ id: string, email: string, invited_by: string, created_at: string, expires_at: string }>, join_link: { token: string, url: string, created_at: string } | null } | null };

export type InviteMembersMutationVariables = Exact<{
  emails: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type InviteMembersMutation = { inviteMembers: { invites: Array<{ id: string, email: string }>, skipped: Array<{ email: string, reason: string }> } };

export type RevokeInviteMutationVariables = Exact<{
  inviteId: Scalars['String']['input'];
}>;


export type RevokeInviteMutation = { revokeInvite: { status: string, id: string | null } };

export type RotateJoinLinkMutationVariables = Exact<{ [key: string]: never; }>;


export type RotateJoinLinkMutation = { rotateJoinLink: { join_link: { token: string, url: string, created_at: string } | null } };

export type DisableJoinLinkMutationVariables = Exact<{ [key: string]: never; }>;


export type DisableJoinLinkMutation = { disableJoinLink: { join_link: { token: string } | null } };

export type JoinTeamMutationVariables = Exact<{
  token: Scalars['String']['input'];
}>;


export type JoinTeamMutation = { joinTeam: { workspace_id: string, name: string, role: string, joined: boolean } };

export type TeamDomainFieldsFragment = { domain: string, status: string, verified_at: string | null, checked_at: string | null, check_error: string | null, verification: { type: string, name: string, value: string } };

export type SetAllowedDomainsMutationVariables = Exact<{
  domains: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type SetAllowedDomainsMutation = { setAllowedDomains: { allowed_domains: Array<string>, domains: Array<{ domain: string, status: string, verified_at: string | null, checked_at: string | null, check_error: string | null, verification: { type: string, name: string, value: string } }> } };

export type CheckAllowedDomainMutationVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckAllowedDomainMutation = { checkAllowedDomain: { domain: string, status: string, verified_at: string | null, checked_at: string | null, check_error: string | null, verification: { type: string, name: string, value: string } } };

export type ChangeMemberRoleMutationVariables = Exact<{
  memberUserId: Scalars['String']['input'];
  role: AssignableRole;
}>;


export type ChangeMemberRoleMutation = { changeMemberRole: { user_id: string, role: string } };

export type RemoveMemberMutationVariables = Exact<{
  memberUserId: Scalars['String']['input'];
}>;


export type RemoveMemberMutation = { removeMember: { status: string, user_id: string | null } };

export type SetSeatsMutationVariables = Exact<{
  quantity: Scalars['Int']['input'];
}>;


export type SetSeatsMutation = { setSeats: { quantity: number, seat_limit: number } };

export type TeamInviteQueryVariables = Exact<{
  token: Scalars['String']['input'];
}>;


export type TeamInviteQuery = { teamInvite: { kind: string, team_name: string, email: string | null, expires_at: string | null } };

export type UsageQueryVariables = Exact<{ [key: string]: never; }>;


export type UsageQuery = { usage: { plan: string, period_start: string, period_end: string | null, period_type: string, requests_today: number, requests_in_period: number, per_minute_limit: number, per_day_limit: number, per_period_limit: number, has_daily_limit: boolean, limits_enforced: boolean, daily_history: Array<{ date: string, count: number }> } | null };

export type UsageBreakdownQueryVariables = Exact<{
  from: InputMaybe<Scalars['String']['input']>;
  to: InputMaybe<Scalars['String']['input']>;
}>;


export type UsageBreakdownQuery = { usageBreakdown: { from: string, to: string, total: number, rows: Array<{ key_id: string | null, key_name: string | null, key_prefix: string | null, key_revoked: boolean | null, endpoint: string, requests: number }> } | null };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const TeamDomainFieldsFragmentDoc = new TypedDocumentString(`
    fragment TeamDomainFields on TeamDomain {
  domain
  status
  verification {
    type
    name
    value
  }
  verified_at
  checked_at
  check_error
}
    `, {"fragmentName":"TeamDomainFields"}) as unknown as TypedDocumentString<TeamDomainFieldsFragment, unknown>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    plan
    workspace_role
    user {
      id
      email
      name
      is_admin
      email_verified
      created_at
    }
    legal_acceptance {
      accepted
      terms_version
      current_terms_version
    }
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const PartnerScopeDocument = new TypedDocumentString(`
    query PartnerScope {
  partnerScope {
    sources
    countries
    updated_at
  }
}
    `) as unknown as TypedDocumentString<PartnerScopeQuery, PartnerScopeQueryVariables>;
export const CatalogueCountriesDocument = new TypedDocumentString(`
    query CatalogueCountries {
  countries {
    code
  }
}
    `) as unknown as TypedDocumentString<CatalogueCountriesQuery, CatalogueCountriesQueryVariables>;
export const CatalogueSourcesDocument = new TypedDocumentString(`
    query CatalogueSources($country: String!) {
  sources(country: $country, includeEmpty: true) {
    source_id
    country
    name
  }
}
    `) as unknown as TypedDocumentString<CatalogueSourcesQuery, CatalogueSourcesQueryVariables>;
export const AdminStatsDocument = new TypedDocumentString(`
    query AdminStats {
  adminStats {
    daily_requests {
      date
      requests
    }
    total_users
    requests_today
    new_users_7d
    new_users_30d
    active_users_7d
    active_users_30d
    top_endpoints {
      endpoint
      requests
    }
  }
}
    `) as unknown as TypedDocumentString<AdminStatsQuery, AdminStatsQueryVariables>;
export const AdminUsersDocument = new TypedDocumentString(`
    query AdminUsers($limit: Int, $offset: Int, $sort: AdminUserSort, $search: String) {
  adminUsers(limit: $limit, offset: $offset, sort: $sort, search: $search) {
    total
    limit
    offset
    sort
    users {
      id
      email
      name
      plan
      subscription_plan
      override {
        plan
        reason
        set_at
      }
      workspace {
        id
        name
      }
      role
      is_admin
      created_at
      last_active_at
      requests_period
      requests_total
    }
  }
}
    `) as unknown as TypedDocumentString<AdminUsersQuery, AdminUsersQueryVariables>;
export const AdminUserEndpointsDocument = new TypedDocumentString(`
    query AdminUserEndpoints($userId: String!) {
  adminUserEndpoints(userId: $userId) {
    user_id
    endpoints {
      endpoint
      requests
    }
  }
}
    `) as unknown as TypedDocumentString<AdminUserEndpointsQuery, AdminUserEndpointsQueryVariables>;
export const AdminSetPlanOverrideDocument = new TypedDocumentString(`
    mutation AdminSetPlanOverride($userId: String!, $plan: OverridePlan, $reason: String) {
  adminSetPlanOverride(userId: $userId, plan: $plan, reason: $reason) {
    user_id
    plan
    subscription_plan
    override {
      plan
      reason
      set_at
    }
  }
}
    `) as unknown as TypedDocumentString<AdminSetPlanOverrideMutation, AdminSetPlanOverrideMutationVariables>;
export const AdminEraseUserDocument = new TypedDocumentString(`
    mutation AdminEraseUser($userId: String!, $reason: String) {
  adminEraseUser(userId: $userId, reason: $reason) {
    status
    user_id
  }
}
    `) as unknown as TypedDocumentString<AdminEraseUserMutation, AdminEraseUserMutationVariables>;
export const AdminFeedbackDocument = new TypedDocumentString(`
    query AdminFeedback($status: FeedbackStatusFilter, $limit: Int) {
  adminFeedback(status: $status, limit: $limit) {
    status
    total
    reports {
      id
      source
      source_id
      issue_type
      description
      status
      channel
      user_id
      forwarded_url
      status_note
      created_at
      updated_at
    }
  }
}
    `) as unknown as TypedDocumentString<AdminFeedbackQuery, AdminFeedbackQueryVariables>;
export const AdminUpdateFeedbackDocument = new TypedDocumentString(`
    mutation AdminUpdateFeedback($reportId: String!, $status: SettableFeedbackStatus!, $note: String) {
  adminUpdateFeedback(reportId: $reportId, status: $status, note: $note) {
    id
    status
    status_note
    updated_at
  }
}
    `) as unknown as TypedDocumentString<AdminUpdateFeedbackMutation, AdminUpdateFeedbackMutationVariables>;
export const AdminMarkFeedbackForwardedDocument = new TypedDocumentString(`
    mutation AdminMarkFeedbackForwarded($reportId: String!, $url: String!) {
  adminMarkFeedbackForwarded(reportId: $reportId, url: $url) {
    id
    status
    forwarded_url
  }
}
    `) as unknown as TypedDocumentString<AdminMarkFeedbackForwardedMutation, AdminMarkFeedbackForwardedMutationVariables>;
export const AdminAuditDocument = new TypedDocumentString(`
    query AdminAudit($offset: Int, $limit: Int, $action: AuditAction, $targetId: String) {
  adminAudit(offset: $offset, limit: $limit, action: $action, targetId: $targetId) {
    total
    items {
      id
      actor_email
      action
      target_type
      target_id
      target_email
      before_json
      after_json
      reason
      created_at
    }
  }
}
    `) as unknown as TypedDocumentString<AdminAuditQuery, AdminAuditQueryVariables>;
export const AdminSetPartnerDocument = new TypedDocumentString(`
    mutation AdminSetPartner($userId: String!, $sources: [String!], $countries: [String!], $reason: String) {
  adminSetPartner(
    userId: $userId
    sources: $sources
    countries: $countries
    reason: $reason
  ) {
    user_id
    sources
    countries
    updated_at
  }
}
    `) as unknown as TypedDocumentString<AdminSetPartnerMutation, AdminSetPartnerMutationVariables>;
export const AdminRemovePartnerDocument = new TypedDocumentString(`
    mutation AdminRemovePartner($userId: String!, $reason: String) {
  adminRemovePartner(userId: $userId, reason: $reason) {
    user_id
    removed
  }
}
    `) as unknown as TypedDocumentString<AdminRemovePartnerMutation, AdminRemovePartnerMutationVariables>;
export const AdminPartnerDocument = new TypedDocumentString(`
    query AdminPartner($userId: ID!) {
  adminPartner(userId: $userId) {
    user_id
    sources
    countries
    updated_at
  }
}
    `) as unknown as TypedDocumentString<AdminPartnerQuery, AdminPartnerQueryVariables>;
export const AdminPlanNamesDocument = new TypedDocumentString(`
    query AdminPlanNames {
  plans {
    plans {
      slug
      name
    }
  }
}
    `) as unknown as TypedDocumentString<AdminPlanNamesQuery, AdminPlanNamesQueryVariables>;
export const SourceUsageDocument = new TypedDocumentString(`
    query SourceUsage($sources: [String!]!, $from: String!, $to: String!, $granularity: AnalyticsGranularity) {
  sourceUsage(sources: $sources, from: $from, to: $to, granularity: $granularity) {
    from
    to
    granularity
    periods {
      source
      periodStart
      periodEnd
      searches {
        value
        suppressed
      }
      hits {
        value
        suppressed
      }
      documentsFetched {
        value
        suppressed
      }
      resolutions {
        value
        suppressed
      }
      distinctAccounts {
        value
        suppressed
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SourceUsageQuery, SourceUsageQueryVariables>;
export const CountryUsageDocument = new TypedDocumentString(`
    query CountryUsage($countries: [String!]!, $from: String!, $to: String!, $granularity: AnalyticsGranularity) {
  countryUsage(
    countries: $countries
    from: $from
    to: $to
    granularity: $granularity
  ) {
    from
    to
    granularity
    periods {
      country
      periodStart
      periodEnd
      searches {
        value
        suppressed
      }
      hits {
        value
        suppressed
      }
      documentsFetched {
        value
        suppressed
      }
      resolutions {
        value
        suppressed
      }
      distinctAccounts {
        value
        suppressed
      }
    }
  }
}
    `) as unknown as TypedDocumentString<CountryUsageQuery, CountryUsageQueryVariables>;
export const TopDocumentsDocument = new TypedDocumentString(`
    query TopDocuments($source: String!, $from: String!, $to: String!, $limit: Int) {
  topDocuments(source: $source, from: $from, to: $to, limit: $limit) {
    source
    suppressed
    documents {
      id
      sourceId
      namespace
      country
      fetches {
        value
        suppressed
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TopDocumentsQuery, TopDocumentsQueryVariables>;
export const ResolverOutcomesDocument = new TypedDocumentString(`
    query ResolverOutcomes($countries: [String!], $from: String!, $to: String!) {
  resolverOutcomes(countries: $countries, from: $from, to: $to) {
    from
    to
    outcomes {
      country
      matchType
      resolutions {
        value
        suppressed
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ResolverOutcomesQuery, ResolverOutcomesQueryVariables>;
export const BillingOverviewDocument = new TypedDocumentString(`
    query BillingOverview($audience: Audience) {
  billingStatus {
    billing_enabled
    plan
    audience
    subscription {
      id
      plan
      status
      interval
      quantity
      current_period_start
      current_period_end
      cancel_at_period_end
    }
    credits {
      balance_usd
      auto_topup {
        enabled
        threshold_usd
        amount_usd
      }
      auto_topup_last_failure {
        reason
        at
      }
    }
    workspace {
      id
      name
      seat_limit
    }
    admin_override {
      plan
      reason
      set_at
    }
    team_plan {
      workspace_id
      workspace_name
      role
      owner_email
    }
  }
  plans(audience: $audience) {
    audience
    title
    plans {
      slug
      name
      per_seat
      prices {
        monthly
        yearly
        currency
      }
      limits {
        per_minute
        per_day
        per_period
      }
      features
      order
      recommended
      tagline
    }
  }
}
    `) as unknown as TypedDocumentString<BillingOverviewQuery, BillingOverviewQueryVariables>;
export const CheckoutDocumentsDocument = new TypedDocumentString(`
    query CheckoutDocuments($plan: PaidPlan!) {
  checkoutDocuments(plan: $plan) {
    key
    title
    version
    assent
  }
}
    `) as unknown as TypedDocumentString<CheckoutDocumentsQuery, CheckoutDocumentsQueryVariables>;
export const PromoDocument = new TypedDocumentString(`
    query Promo($code: String!) {
  promo(code: $code) {
    code
    valid
    reason
    percent_off
    amount_off
    currency
    duration
    duration_in_months
    plans
  }
}
    `) as unknown as TypedDocumentString<PromoQuery, PromoQueryVariables>;
export const CheckoutDocument = new TypedDocumentString(`
    mutation Checkout($input: CheckoutInput!) {
  checkout(input: $input) {
    checkout_url
  }
}
    `) as unknown as TypedDocumentString<CheckoutMutation, CheckoutMutationVariables>;
export const VerifyCheckoutDocument = new TypedDocumentString(`
    mutation VerifyCheckout($sessionId: String!) {
  verifyCheckout(sessionId: $sessionId) {
    session_id
    mode
    status
    payment_status
    plan
    interval
    quantity
    workspace_id
    credits_usd
  }
}
    `) as unknown as TypedDocumentString<VerifyCheckoutMutation, VerifyCheckoutMutationVariables>;
export const PortalSessionDocument = new TypedDocumentString(`
    mutation PortalSession {
  portalSession {
    url
  }
}
    `) as unknown as TypedDocumentString<PortalSessionMutation, PortalSessionMutationVariables>;
export const CreditTopupCheckoutDocument = new TypedDocumentString(`
    mutation CreditTopupCheckout($amountUsd: Int!) {
  creditTopupCheckout(amountUsd: $amountUsd) {
    checkout_url
  }
}
    `) as unknown as TypedDocumentString<CreditTopupCheckoutMutation, CreditTopupCheckoutMutationVariables>;
export const SetAutoTopupDocument = new TypedDocumentString(`
    mutation SetAutoTopup($input: AutoTopupInput!) {
  setAutoTopup(input: $input) {
    enabled
    threshold_usd
    amount_usd
    last_failure {
      reason
      at
    }
  }
}
    `) as unknown as TypedDocumentString<SetAutoTopupMutation, SetAutoTopupMutationVariables>;
export const SetAudienceDocument = new TypedDocumentString(`
    mutation SetAudience($audience: Audience!) {
  setAudience(audience: $audience) {
    audience
  }
}
    `) as unknown as TypedDocumentString<SetAudienceMutation, SetAudienceMutationVariables>;
export const InvoicesDocument = new TypedDocumentString(`
    query Invoices {
  invoices {
    has_more
    invoices {
      id
      number
      status
      created_at
      period_start
      period_end
      total_usd
      amount_paid_usd
      currency
      hosted_invoice_url
      invoice_pdf
    }
  }
}
    `) as unknown as TypedDocumentString<InvoicesQuery, InvoicesQueryVariables>;
export const OAuthGrantsDocument = new TypedDocumentString(`
    query OAuthGrants {
  oauthGrants {
    id
    client_id
    client_name
    client_uri
    scopes
    resources
    authorized_at
    expires_at
  }
}
    `) as unknown as TypedDocumentString<OAuthGrantsQuery, OAuthGrantsQueryVariables>;
export const RevokeOAuthGrantDocument = new TypedDocumentString(`
    mutation RevokeOAuthGrant($id: ID!) {
  revokeOAuthGrant(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<RevokeOAuthGrantMutation, RevokeOAuthGrantMutationVariables>;
export const HomeDocument = new TypedDocumentString(`
    query Home {
  me {
    getting_started {
      verified
      has_key
      first_call_at
      agent_connected
    }
  }
  keys {
    id
    key_prefix
    revoked
    created_at
  }
  usage {
    plan
    requests_today
    requests_in_period
    per_day_limit
    per_period_limit
    per_minute_limit
    has_daily_limit
    limits_enforced
    period_end
    daily_history {
      date
      count
    }
  }
}
    `) as unknown as TypedDocumentString<HomeQuery, HomeQueryVariables>;
export const KeysDocument = new TypedDocumentString(`
    query Keys {
  keys {
    id
    name
    key_prefix
    created_at
    last_used_at
    revoked
  }
}
    `) as unknown as TypedDocumentString<KeysQuery, KeysQueryVariables>;
export const CreateKeyDocument = new TypedDocumentString(`
    mutation CreateKey($name: String) {
  createKey(name: $name) {
    id
    name
    key_prefix
    created_at
    key
  }
}
    `) as unknown as TypedDocumentString<CreateKeyMutation, CreateKeyMutationVariables>;
export const RevokeKeyDocument = new TypedDocumentString(`
    mutation RevokeKey($id: ID!) {
  revokeKey(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<RevokeKeyMutation, RevokeKeyMutationVariables>;
export const RenameKeyDocument = new TypedDocumentString(`
    mutation RenameKey($id: ID!, $name: String!) {
  renameKey(id: $id, name: $name) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<RenameKeyMutation, RenameKeyMutationVariables>;
export const SearchDiscoveryDocument = new TypedDocumentString(`
    query SearchDiscovery {
  manifest {
    collections {
      namespace
      total_documents
      sources
    }
    sources {
      source
      country
      name
      total_documents
      license_name
      license_url
      commercial_use
    }
    search {
      engine
      hybrid
      embedding_model
    }
  }
  countries {
    code
    case_law_sources
    legislation_sources
    doctrine_sources
    total_documents
  }
}
    `) as unknown as TypedDocumentString<SearchDiscoveryQuery, SearchDiscoveryQueryVariables>;
export const SourceFiltersDocument = new TypedDocumentString(`
    query SourceFilters($source: String!, $namespace: Namespace) {
  filters(source: $source, namespace: $namespace) {
    source
    namespace
    courts
    jurisdictions
    chambers
    languages
    court_tiers
    date_range {
      min
      max
    }
  }
}
    `) as unknown as TypedDocumentString<SourceFiltersQuery, SourceFiltersQueryVariables>;
export const SearchDocument = new TypedDocumentString(`
    query Search($input: SearchInput!) {
  search(input: $input) {
    query
    total_hits
    alpha
    namespace
    elapsed_ms
    hits {
      id
      source
      source_id
      score
      namespace
      title
      snippet
      summary
      url
      country
      language
      court
      court_tier
      date
      ecli
      case_number
      decision_type
      authority
      document_type
      identifier
      canonical_path
      text
      text_truncated
      full_text_size
      metadata
      score_parts
      license
    }
  }
}
    `) as unknown as TypedDocumentString<SearchQuery, SearchQueryVariables>;
export const DocumentViewDocument = new TypedDocumentString(`
    query DocumentView($source: String!, $sourceId: String!, $citedByFirst: Int!) {
  document(source: $source, sourceId: $sourceId) {
    id
    source
    source_id
    namespace
    country
    title
    text
    language
    date
    url
    court
    court_tier
    chamber
    ecli
    case_number
    decision_type
    authority
    document_type
    status
    identifier
    eli_uri
    effective_date
    canonical_path
    parent_source_id
    summary
    short_names
    cited_by_count
    cites {
      links {
        cited {
          id
          source
          source_id
        }
        start
        end
        pinpoint
        citation
        carried
      }
      unresolved {
        start
        end
        citation
        reason
      }
    }
    citedBy(first: $citedByFirst) {
      cited_by_count
      total
      next_cursor
      items {
        document {
          id
          source
          source_id
          namespace
          country
          court
          court_tier
          date
          title
        }
        snippet
        highlight {
          start
          end
        }
        pinpoint
        citation
        occurrences
      }
    }
    citedByPerYear {
      year
      count
    }
  }
}
    `) as unknown as TypedDocumentString<DocumentViewQuery, DocumentViewQueryVariables>;
export const DocumentCitedByDocument = new TypedDocumentString(`
    query DocumentCitedBy($source: String!, $sourceId: String!, $namespace: Namespace, $country: String, $courtTier: Int, $dateStart: String, $dateEnd: String, $sort: CitedBySort, $first: Int, $after: String, $withYears: Boolean!) {
  document(source: $source, sourceId: $sourceId) {
    id
    citedBy(
      namespace: $namespace
      country: $country
      courtTier: $courtTier
      dateStart: $dateStart
      dateEnd: $dateEnd
      sort: $sort
      first: $first
      after: $after
    ) {
      cited_by_count
      total
      next_cursor
      items {
        document {
          id
          source
          source_id
          namespace
          country
          court
          court_tier
          date
          title
        }
        snippet
        highlight {
          start
          end
        }
        pinpoint
        citation
        occurrences
      }
    }
    citedByPerYear(
      namespace: $namespace
      country: $country
      courtTier: $courtTier
      dateStart: $dateStart
      dateEnd: $dateEnd
    ) @include(if: $withYears) {
      year
      count
    }
  }
}
    `) as unknown as TypedDocumentString<DocumentCitedByQuery, DocumentCitedByQueryVariables>;
export const ResolveDocument = new TypedDocumentString(`
    query Resolve($input: ResolveInput!) {
  resolve(input: $input) {
    reference
    resolved
    match_type
    elapsed_ms
    documents {
      id
      source
      source_id
      title
      url
      country
      namespace
      canonical_path
      confidence
    }
    parsed {
      country
      act
      act_id
      unit_type
      unit_number
      sub_units
      court
      case_number
      identifier_kind
      identifier
    }
  }
}
    `) as unknown as TypedDocumentString<ResolveQuery, ResolveQueryVariables>;
export const TeamDocument = new TypedDocumentString(`
    query Team {
  team {
    id
    name
    plan
    seat_limit
    seats_used
    allowed_domains
    domains {
      ...TeamDomainFields
    }
    role
    members {
      user_id
      role
      joined_at
      requests_in_period
      user {
        id
        email
        name
      }
    }
    invites {
      id
      email
      invited_by
      created_at
      expires_at
    }
    join_link {
      token
      url
      created_at
    }
  }
}
    fragment TeamDomainFields on TeamDomain {
  domain
  status
  verification {
    type
    name
    value
  }
  verified_at
  checked_at
  check_error
}`) as unknown as TypedDocumentString<TeamQuery, TeamQueryVariables>;
export const InviteMembersDocument = new TypedDocumentString(`
    mutation InviteMembers($emails: [String!]!) {
  inviteMembers(emails: $emails) {
    invites {
      id
      email
    }
    skipped {
      email
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<InviteMembersMutation, InviteMembersMutationVariables>;
export const RevokeInviteDocument = new TypedDocumentString(`
    mutation RevokeInvite($inviteId: String!) {
  revokeInvite(inviteId: $inviteId) {
    status
    id
  }
}
    `) as unknown as TypedDocumentString<RevokeInviteMutation, RevokeInviteMutationVariables>;
export const RotateJoinLinkDocument = new TypedDocumentString(`
    mutation RotateJoinLink {
  rotateJoinLink {
    join_link {
      token
      url
      created_at
    }
  }
}
    `) as unknown as TypedDocumentString<RotateJoinLinkMutation, RotateJoinLinkMutationVariables>;
export const DisableJoinLinkDocument = new TypedDocumentString(`
    mutation DisableJoinLink {
  disableJoinLink {
    join_link {
      token
    }
  }
}
    `) as unknown as TypedDocumentString<DisableJoinLinkMutation, DisableJoinLinkMutationVariables>;
export const JoinTeamDocument = new TypedDocumentString(`
    mutation JoinTeam($token: String!) {
  joinTeam(token: $token) {
    workspace_id
    name
    role
    joined
  }
}
    `) as unknown as TypedDocumentString<JoinTeamMutation, JoinTeamMutationVariables>;
export const SetAllowedDomainsDocument = new TypedDocumentString(`
    mutation SetAllowedDomains($domains: [String!]!) {
  setAllowedDomains(domains: $domains) {
    allowed_domains
    domains {
      ...TeamDomainFields
    }
  }
}
    fragment TeamDomainFields on TeamDomain {
  domain
  status
  verification {
    type
    name
    value
  }
  verified_at
  checked_at
  check_error
}`) as unknown as TypedDocumentString<SetAllowedDomainsMutation, SetAllowedDomainsMutationVariables>;
export const CheckAllowedDomainDocument = new TypedDocumentString(`
    mutation CheckAllowedDomain($domain: String!) {
  checkAllowedDomain(domain: $domain) {
    ...TeamDomainFields
  }
}
    fragment TeamDomainFields on TeamDomain {
  domain
  status
  verification {
    type
    name
    value
  }
  verified_at
  checked_at
  check_error
}`) as unknown as TypedDocumentString<CheckAllowedDomainMutation, CheckAllowedDomainMutationVariables>;
export const ChangeMemberRoleDocument = new TypedDocumentString(`
    mutation ChangeMemberRole($memberUserId: String!, $role: AssignableRole!) {
  changeMemberRole(memberUserId: $memberUserId, role: $role) {
    user_id
    role
  }
}
    `) as unknown as TypedDocumentString<ChangeMemberRoleMutation, ChangeMemberRoleMutationVariables>;
export const RemoveMemberDocument = new TypedDocumentString(`
    mutation RemoveMember($memberUserId: String!) {
  removeMember(memberUserId: $memberUserId) {
    status
    user_id
  }
}
    `) as unknown as TypedDocumentString<RemoveMemberMutation, RemoveMemberMutationVariables>;
export const SetSeatsDocument = new TypedDocumentString(`
    mutation SetSeats($quantity: Int!) {
  setSeats(quantity: $quantity) {
    quantity
    seat_limit
  }
}
    `) as unknown as TypedDocumentString<SetSeatsMutation, SetSeatsMutationVariables>;
export const TeamInviteDocument = new TypedDocumentString(`
    query TeamInvite($token: String!) {
  teamInvite(token: $token) {
    kind
    team_name
    email
    expires_at
  }
}
    `) as unknown as TypedDocumentString<TeamInviteQuery, TeamInviteQueryVariables>;
export const UsageDocument = new TypedDocumentString(`
    query Usage {
  usage {
    plan
    period_start
    period_end
    period_type
    requests_today
    requests_in_period
    per_minute_limit
    per_day_limit
    per_period_limit
    has_daily_limit
    limits_enforced
    daily_history {
      date
      count
    }
  }
}
    `) as unknown as TypedDocumentString<UsageQuery, UsageQueryVariables>;
export const UsageBreakdownDocument = new TypedDocumentString(`
    query UsageBreakdown($from: String, $to: String) {
  usageBreakdown(from: $from, to: $to) {
    from
    to
    total
    rows {
      key_id
      key_name
      key_prefix
      key_revoked
      endpoint
      requests
    }
  }
}
    `) as unknown as TypedDocumentString<UsageBreakdownQuery, UsageBreakdownQueryVariables>;