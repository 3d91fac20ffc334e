/**
 * The caller's team workspace, read once per request: every `Workspace` reference and every
 * `User.workspace` of a request resolves from the same read (`_entities` with 100 references
 * ran ~275 SQL statements, one overview each; now the statements of one overview). Only the
 * caller's own workspace is ever visible, so there is one key per request and nothing to batch:
 * a memo in the request's loaders (RequestContext.loader) rather than a DataLoader. Made with the
 * request's context and dropped with it, so no other request or caller ever sees it.
 */
import type { RequestContext } from '../../src/context.js';
import type { TeamViewsService } from '../../src/modules/teams/team-views.service.js';

/** What this module needs of the teams API (teams.resolver.ts's TeamsGraphqlApi has it). */
interface WorkspaceViews {
  views: Pick<TeamViewsService, 'overview'>;
}

type Overview = Awaited<ReturnType<TeamViewsService['overview']>>;

/** The key of the request's memo (RequestContext.loader). */
const CALLER_WORKSPACE = Symbol('teams caller workspace');

/** The caller's workspace overview (null outside a team), read on the request's first ask. */
export function callerWorkspaceOf(api: WorkspaceViews, ctx: RequestContext): Promise<Overview> {
  return ctx.loader(CALLER_WORKSPACE, () => api.views.overview(ctx));
}

/** The workspace `workspaceId` when it is the caller's own, else null (as overview(ctx, id) answers). */
export async function callerWorkspaceNamed(api: WorkspaceViews, ctx: RequestContext, workspaceId: string): Promise<Overview> {
  const own = await callerWorkspaceOf(api, ctx);
  return own && own.id === workspaceId ? own : null;
}
