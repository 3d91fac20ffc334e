/**
 * The migrations, in order. MikroORM runs exactly this list (`migrations.migrationsList`),
 * never a folder glob, so the same classes load under tsx, jest (ESM) and a bundle.
 * After generating a migration file in this folder, import it and append it below.
 */
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121115223_initial } from './Migration20261121115223_initial.js';
import { Migration20261121122629_accounts } from './Migration20261121122629_accounts.js';
import { Migration20261121130850_feedback_reports } from './Migration20261121130850_feedback_reports.js';
import { Migration20261121140832_oauth } from './Migration20261121140832_oauth.js';
import { Migration20261123173835_ended_sessions } from './Migration20261123173835_ended_sessions.js';
import { Migration20261123180722_billing } from './Migration20261123180722_billing.js';
import { Migration20261123185125_teams } from './Migration20261123185125_teams.js';
import { Migration20261123185829_admin } from './Migration20261123185829_admin.js';
import { Migration20261127100443_email_proven_at } from './Migration20261127100443_email_proven_at.js';
import { Migration20261127100529_team_domain_proofs } from './Migration20261127100529_team_domain_proofs.js';
import { Migration20261127113000_stripe_cancellation_failed_at } from './Migration20261127113000_stripe_cancellation_failed_at.js';
import { Migration20261127132924_billing_duplicate_subscriptions } from './Migration20261127132924_billing_duplicate_subscriptions.js';
import { Migration20261127140000_usage_event_id } from './Migration20261127140000_usage_event_id.js';
import { Migration20261127170000_usage_event_billed } from './Migration20261127170000_usage_event_billed.js';
import { Migration20261127200948_analytics } from './Migration20261127200948_analytics.js';
import { Migration20261127210721_citation_graph } from './Migration20261127210721_citation_graph.js';
import { Migration20261127220000_analytics_grid_index } from './Migration20261127220000_analytics_grid_index.js';
import { Migration20261128040000_citation_link_cited_act } from './Migration20261128040000_citation_link_cited_act.js';

export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121115223_initial', class: Migration20261121115223_initial },
  { name: 'Migration20261121122629_accounts', class: Migration20261121122629_accounts },
  { name: 'Migration20261121130850_feedback_reports', class: Migration20261121130850_feedback_reports },
  { name: 'Migration20261121140832_oauth', class: Migration20261121140832_oauth },
  { name: 'Migration20261123173835_ended_sessions', class: Migration20261123173835_ended_sessions },
  { name: 'Migration20261123180722_billing', class: Migration20261123180722_billing },
  { name: 'Migration20261123185125_teams', class: Migration20261123185125_teams },
  { name: 'Migration20261123185829_admin', class: Migration20261123185829_admin },
  { name: 'Migration20261127100443_email_proven_at', class: Migration20261127100443_email_proven_at },
  { name: 'Migration20261127100529_team_domain_proofs', class: Migration20261127100529_team_domain_proofs },
  { name: 'Migration20261127113000_stripe_cancellation_failed_at', class: Migration20261127113000_stripe_cancellation_failed_at },
  { name: 'Migration20261127132924_billing_duplicate_subscriptions', class: Migration20261127132924_billing_duplicate_subscriptions },
  { name: 'Migration20261127140000_usage_event_id', class: Migration20261127140000_usage_event_id },
  { name: 'Migration20261127170000_usage_event_billed', class: Migration20261127170000_usage_event_billed },
  { name: 'Migration20261127200948_analytics', class: Migration20261127200948_analytics },
  { name: 'Migration20261127210721_citation_graph', class: Migration20261127210721_citation_graph },
  { name: 'Migration20261127220000_analytics_grid_index', class: Migration20261127220000_analytics_grid_index },
  { name: 'Migration20261128040000_citation_link_cited_act', class: Migration20261128040000_citation_link_cited_act },
];
