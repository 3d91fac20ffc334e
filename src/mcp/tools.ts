/**
 * The MCP tools. Each is a few lines over a shared service: it takes the caller's context
 * (built by the door from the authenticated request) and calls ONE service method; validation,
 * billing and limits live in the services, exactly as for REST and GraphQL.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import type { Logger } from '../logger.js';
import { sourceIssueReportSchema, sourceIssueSchema, type FeedbackService } from '../modules/admin/feedback.service.js';
import { countryInfoSchema, courtInfoSchema, documentSchema, sourceFiltersSchema, sourceInfoSchema } from '../modules/legal-data/catalog.schema.js';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { NAMESPACES } from '../domain/legal-document.js';
import { resolveRequestSchema, resolveResponseSchema } from '../modules/legal-data/resolve.schema.js';
import { searchRequestSchema, searchResponseSchema } from '../modules/legal-data/search.schema.js';
import { registerCitatorTools } from './citator-tools.js';
import { structuredResult, toolError } from './tool-result.js';

export interface ToolServices {
  legalData: LegalDataApi;
  /** Absent in test apps built without it: `report_source_issue` is then not offered. */
  feedback?: FeedbackService;
}

/** Every tool reads, except report_source_issue; none reaches outside this service. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const sourceParam = z.string().regex(/^[^/]+\/[^/]+$/, 'must be <country>/<source_name>');

const search = searchRequestSchema.shape;
const searchInput = searchRequestSchema.extend({
  court: search.court.describe('Exact court name, as listed by get_courts or get_filters.'),
  jurisdiction: search.jurisdiction.describe('Exact jurisdiction value, as listed by get_filters.'),
  namespace: search.namespace.describe('Collection to search: case_law (court decisions, the default), legislation (acts and their articles) or doctrine (guidance, opinions).'),
  result_detail: search.result_detail.describe(
    'How much of each hit to return: snippet (matched passage, default), summary_only, full_text (text up to 20,000 characters) or full_metadata (text and every metadata field).',
  ),
});

/**
 * Registers the tools on `server`. `contextOf` gives the RequestContext of the call being
 * handled (from the request's authentication).
 */
// size: a declarative table of the MCP tools: each entry is its name, description, input schema and one service call (8 entries of 10-16 lines; the citator's two in citator-tools.ts); read together they are the tool list an MCP client sees
export function registerTools(
  server: McpServer,
  services: ToolServices,
  contextOf: (extra: { authInfo?: { extra?: Record<string, unknown> } }) => RequestContext,
  logger: Pick<Logger, 'error'>,
): void {
  const { legalData, feedback } = services;
  /** Runs one service call and maps its answer or its error. */
  const run =
    <A>(tool: string, call: (ctx: RequestContext, args: A) => Promise<object>) =>
    async (args: A, extra: { authInfo?: { extra?: Record<string, unknown> } }): Promise<CallToolResult> => {
      try {
        return structuredResult(await call(contextOf(extra), args));
      } catch (error) {
        return toolError(error, logger, tool);
      }
    };

  server.registerTool(
    'search',
    {
      title: 'Search legal documents',
      description:
        'Hybrid semantic + keyword search over European and worldwide law: court decisions (case_law), legislation (acts and single articles) and doctrine. ' +
        'Pick the namespace first (default case_law); narrow with country codes (DE, FR, EU, CoE...), sources (<country>/<source_name>), court, court_tier, language and dates. ' +
        'Each hit has an id, source and source_id: pass source and source_id to get_document for the full text. ' +
        'For a known citation (e.g. "§ 823 BGB", an ECLI or CELEX number) use resolve_reference instead.',
      // shapes, not the named schemas: a named (meta id) schema would turn the tool's JSON schema
      // into a bare $ref, and MCP requires `type: object` at the root
      inputSchema: searchInput.shape,
      outputSchema: searchResponseSchema.shape,
      annotations: READ_ONLY,
    },
    run('search', (ctx, args) => legalData.search(ctx, args)),
  );

  server.registerTool(
    'get_document',
    {
      title: 'Get a full document',
      description:
        'The full text and metadata of one document, by its source (<country>/<source_name>, e.g. DE/GesetzeImInternet) and source_id (e.g. bgb/823), as given by search or resolve_reference hits.',
      inputSchema: {
        source: sourceParam.describe('The source as <country>/<source_name>, e.g. DE/BGH or EU/EUR-Lex.'),
        source_id: z.string().min(1).describe('The document id within its source, e.g. bgb/823 (may contain slashes).'),
      },
      outputSchema: documentSchema.shape,
      annotations: READ_ONLY,
    },
    run('get_document', (ctx, args: { source: string; source_id: string }) => legalData.getDocument(ctx, args.source, args.source_id)),
  );

  server.registerTool(
    'resolve_reference',
    {
      title: 'Resolve a legal citation',
      description:
        'Turns a citation into the exact document(s): ECLI, CELEX, ELI, national article citations (§ 823 Abs. 1 BGB, article L. 1234-1 du Code du travail, Article 6(1)(a) GDPR), case numbers (C-311/18, VI ZR 174/22). ' +
        'Strict: match_type "none" means the corpus holds no certain match (then try search); "ambiguous" returns every candidate with resolved=false.',
      inputSchema: resolveRequestSchema.shape,
      outputSchema: resolveResponseSchema.shape,
      annotations: READ_ONLY,
    },
    run('resolve_reference', (ctx, args) => legalData.resolve(ctx, args)),
  );

  server.registerTool(
    'discover_countries',
    {
      title: 'List jurisdictions',
      description:
        'The jurisdictions this service covers (code, e.g. DE, FR, EU, CoE), with the number of case-law, legislation and doctrine sources and of documents in each. Use the codes as search.country.',
      inputSchema: {},
      outputSchema: { countries: z.array(countryInfoSchema) },
      annotations: READ_ONLY,
    },
    run('discover_countries', (ctx) => legalData.countries(ctx)),
  );

  server.registerTool(
    'discover_sources',
    {
      title: 'List the sources of a jurisdiction',
      description:
        'The sources (courts, official journals, legislation portals, authorities) of one jurisdiction, with licence, court tier and document counts per namespace. Use source as search.source or get_filters.source.',
      inputSchema: {
        country: z.string().min(1).describe('Jurisdiction code, e.g. DE, FR, EU, CoE (see discover_countries).'),
        include_empty: z.boolean().default(false).describe('Also list catalogued sources that have no documents yet.'),
      },
      outputSchema: { country: z.string(), sources: z.array(sourceInfoSchema) },
      annotations: READ_ONLY,
    },
    run('discover_sources', (ctx, args: { country: string; include_empty: boolean }) =>
      legalData.sources(ctx, args.country, { includeEmpty: args.include_empty }),
    ),
  );

  server.registerTool(
    'get_filters',
    {
      title: 'Filter values of a source',
      description:
        'The exact values search filters accept for one source: courts, jurisdictions, chambers, decision types, languages, subdivisions, court tiers and the date range of its documents.',
      inputSchema: {
        source: sourceParam.describe('The source as <country>/<source_name>, e.g. DE/BGH.'),
        namespace: z.enum(NAMESPACES).optional().describe("Namespace to describe; default: the source's largest."),
      },
      outputSchema: sourceFiltersSchema.shape,
      annotations: READ_ONLY,
    },
    run('get_filters', (ctx, args: { source: string; namespace?: string }) => legalData.filters(ctx, args.source, args.namespace)),
  );

  server.registerTool(
    'get_courts',
    {
      title: 'List courts',
      description: 'Courts with their source, court tier (1 = apex, 2 = appellate, 3 = first instance) and document count, optionally for one jurisdiction or one source. Use court as search.court.',
      inputSchema: {
        country: z.string().min(1).optional().describe('Jurisdiction code, e.g. FR.'),
        source: sourceParam.optional().describe('The source as <country>/<source_name>.'),
      },
      outputSchema: { courts: z.array(courtInfoSchema) },
      annotations: READ_ONLY,
    },
    run('get_courts', async (ctx, args: { country?: string; source?: string }) => ({ courts: await legalData.courts(ctx, args) })),
  );

  if (feedback) {
    server.registerTool(
      'report_source_issue',
      {
        title: 'Report a problem with a source or document',
        description:
          'Tell the editors about a problem you noticed in the data: wrong or missing metadata, broken or truncated text, an outdated version, a wrong link, duplicates or missing documents. ' +
          'Name the source, the document (source_id) when it is about one, and describe what you expected and what you found. The report is stored with status open.',
        inputSchema: sourceIssueSchema,
        outputSchema: { report: sourceIssueReportSchema.describe('The stored report, with status open.') },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      run('report_source_issue', async (ctx, args) => ({ report: await feedback.reportSourceIssue(ctx, args) })),
    );
  }

  registerCitatorTools(server, legalData, run);
}
