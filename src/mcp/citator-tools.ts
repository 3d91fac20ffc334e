/**
 * The citator's MCP tools (issue 37, item 4): `find_citing_documents` (who cites a document) and
 * `list_citations` (what a document cites), so an agent can follow the law from a provision to
 * the case law applying it and back. Each is one LegalDataApi call, the same the REST doors
 * (`GET …/cited-by`, `GET …/cites`) and GraphQL's `Document.citedBy`/`cites` make: same filters,
 * sort, paging and answer, validated and billed as a document read by the service.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { citedByQuerySchema, citedByResponseSchema, citesResponseSchema } from '../modules/legal-data/citator/citator.schema.js';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';

type ToolExtra = { authInfo?: { extra?: Record<string, unknown> } };
/** tools.ts's runner: one service call, its answer or its error mapped to a tool result. */
export type ToolRunner = <A>(tool: string, call: (ctx: RequestContext, args: A) => Promise<object>) => (args: A, extra: ToolExtra) => Promise<CallToolResult>;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The cited (or citing) document, named as get_document names it. */
const documentParams = {
  source: z
    .string()
    .regex(/^[^/]+\/[^/]+$/, 'must be <country>/<source_name>')
    .describe('The source as <country>/<source_name>, e.g. DE/GesetzeImInternet or DE/BGH.'),
  source_id: z.string().min(1).describe('The document id within its source, e.g. bgb/823 (may contain slashes).'),
};

type DocumentArgs = { source: string; source_id: string };

export function registerCitatorTools(server: McpServer, legalData: LegalDataApi, run: ToolRunner): void {
  const query = citedByQuerySchema.shape;
  server.registerTool(
    'find_citing_documents',
    {
      title: 'Find the documents citing a document',
      description:
        'Who cites a provision, an act or a decision: the decisions and guidance documents of the corpus whose citations resolve to it (strictly: only sure links). ' +
        'An article (source_id bgb/823) lists the citations naming it; an act (bgb) the citations naming no article of it, or with include_articles=true also those of all its articles. ' +
        'One item per citing document with its metadata, the passage with the citation highlighted, the pinpoint as written and how often it cites. ' +
        'Filter by namespace, country, court, court_tier, date_start/date_end; sort by date (newest first), court_tier (highest court first) or relevance (passages holding most words of q). ' +
        'Pass next_cursor as cursor for the next page. Follow an item with get_document (its document.source and document.source_id).',
      inputSchema: {
        ...documentParams,
        namespace: query.namespace,
        country: query.country,
        court: query.court.describe('Only citing decisions of this court, as get_courts lists it.'),
        court_tier: query.court_tier,
        date_start: query.date_start,
        date_end: query.date_end,
        sort: query.sort,
        q: query.q,
        include_articles: query.include_articles,
        limit: query.limit,
        cursor: query.cursor,
      },
      outputSchema: citedByResponseSchema.shape,
      annotations: READ_ONLY,
    },
    run('find_citing_documents', (ctx, { source, source_id, ...filters }: DocumentArgs & Record<string, unknown>) => legalData.citedBy(ctx, source, source_id, filters)),
  );

  server.registerTool(
    'list_citations',
    {
      title: 'List what a document cites',
      description:
        "A document's references: the citations resolved to a document of the corpus (links, in order of appearance, with the cited source and source_id for get_document, the pinpoint and whether the act came from context), " +
        'then the citations resolving to nothing sure, as text with the reason (act_not_in_corpus, unit_not_in_corpus, ambiguous, foreign_act, no_act).',
      inputSchema: documentParams,
      outputSchema: citesResponseSchema.shape,
      annotations: READ_ONLY,
    },
    run('list_citations', (ctx, args: DocumentArgs) => legalData.cites(ctx, args.source, args.source_id)),
  );
}
