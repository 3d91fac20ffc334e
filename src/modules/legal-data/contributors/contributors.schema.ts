/** The answer of GET /v1/contributors (documented in /openapi.json). */
import { z } from 'zod';

export const contributorCreditSchema = z
  .object({
    login: z.string().describe('GitHub login; for a commit without a known login, the author name as committed'),
    issues: z.number().int(),
    pull_requests: z.number().int(),
    commits: z.number().int(),
    total: z.number().int(),
    first_contribution_at: z.string().nullable(),
    last_contribution_at: z.string().nullable(),
  })
  .meta({ id: 'ContributorCredit' });

export const contributorsResponseSchema = z
  .object({
    computed_at: z.string().describe('When the credits were computed from their origin'),
    origin: z.enum(['corpus_file', 'github']),
    stale: z.boolean().describe('True when GitHub failed and the last good result is served'),
    total_contributions: z.number().int(),
    total_contributors: z.number().int(),
    top_contributors: z.array(contributorCreditSchema),
    by_country: z.array(z.object({ country: z.string(), contributors: z.array(contributorCreditSchema) })),
    by_source: z.array(z.object({ source: z.string(), contributors: z.array(contributorCreditSchema) })),
  })
  .meta({ id: 'ContributorsResponse' });
