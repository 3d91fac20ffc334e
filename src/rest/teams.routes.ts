/**
 * The team REST routes (/v1/team*): each handler builds the request context and calls one
 * team service method (the rules live there); each route is documented where it is mounted.
 */
import express, { type Request } from 'express';
import {
  domainRecordSchema,
  domainsAnswerSchema,
  domainsRequestSchema,
  inviteAnswerSchema,
  inviteRequestSchema,
  inviteRevokedSchema,
  joinAnswerSchema,
  joinLinkAnswerSchema,
  joinRequestSchema,
  memberAnswerSchema,
  removedAnswerSchema,
  roleRequestSchema,
  seatsAnswerSchema,
  seatsRequestSchema,
  teamRecordSchema,
} from '../modules/teams/teams.schema.js';
import type { TeamsServices } from '../modules/teams/teams.module.js';
import { contextOf } from '../http/request-context.js';
import { jsonBody, withLoc } from './errors.js';
import type { RestApi } from './rest-api.js';

const FORBIDDEN = 'Your role in the workspace may not do this';

// size: a route table: one registration per endpoint, in the order /openapi.json lists them, each handler a few lines that build the request context and call one service method; split by endpoint, the table would be scattered over files without making any handler shorter
export function teamsRouter(teams: TeamsServices, rest: RestApi): express.Router {
  const router = express.Router();
  const ctx = (req: Request) => contextOf(req);
  const tags = ['team'];

  rest.route(router, '/v1/team', {
    get: [
      { name: 'get_team', summary: 'Get Team', description: "The caller's workspace, members and pending invites; the join link for owner and admins.", tags, access: 'account', responses: { 200: teamRecordSchema } },
      async (req, res) => {
        res.json(await teams.views.team(ctx(req)));
      },
    ],
  });

  rest.route(router, '/v1/team/invites', {
    post: [
      {
        name: 'create_invites', limited: 'team_invite',
        summary: 'Create Invites',
        description: 'Owner or admin. All or nothing: 409 when the new invites do not fit in the free seats (nothing stored or sent).',
        tags,
        access: 'account',
        body: inviteRequestSchema,
        responses: { 200: inviteAnswerSchema, 403: FORBIDDEN, 409: 'Not enough free seats' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => teams.invites.invite(ctx(req), req.body)));
      },
    ],
  });

  rest.route(router, '/v1/team/invites/:invite_id', {
    delete: [
      { name: 'revoke_invite', limited: 'team_invite_revoke', summary: 'Revoke Invite', tags, access: 'account', responses: { 200: inviteRevokedSchema, 403: FORBIDDEN, 404: 'No such pending invite in your workspace' } },
      async (req, res) => {
        res.json(await withLoc('path', () => teams.invites.revokeInvite(ctx(req), String(req.params.invite_id))));
      },
    ],
  });

  rest.route(router, '/v1/team/join-link', {
    post: [
      { name: 'rotate_join_link', limited: 'team_join_link_rotate', summary: 'Rotate Join Link', description: 'Owner or admin: a new shareable link; the old one stops working.', tags, access: 'account', responses: { 200: joinLinkAnswerSchema, 403: FORBIDDEN } },
      async (req, res) => {
        res.json(await teams.invites.rotateJoinLink(ctx(req)));
      },
    ],
    delete: [
      { name: 'disable_join_link', limited: 'team_join_link_disable', summary: 'Disable Join Link', tags, access: 'account', responses: { 200: joinLinkAnswerSchema, 403: FORBIDDEN } },
      async (req, res) => {
        res.json(await teams.invites.disableJoinLink(ctx(req)));
      },
    ],
  });

  rest.route(router, '/v1/team/join', {
    post: [
      {
        name: 'join_team', limited: 'team_join',
        summary: 'Join Team',
        tags,
        access: 'account',
        body: joinRequestSchema,
        responses: { 200: joinAnswerSchema, 403: 'Invite sent to another address', 404: 'Unknown, used, expired or rotated token', 409: 'No free seat, or the caller is in another paid workspace' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => teams.invites.join(ctx(req), req.body)));
      },
    ],
  });

  rest.route(router, '/v1/team/domains', {
    put: [
      {
        name: 'set_domains', limited: 'team_domains_set',
        summary: 'Set Domains',
        description: 'Owner or admin; replaces the list. A new domain is pending (auto-joins nobody) until the TXT record in its `verification` is seen; a kept domain keeps its state.',
        tags,
        access: 'account',
        body: domainsRequestSchema,
        responses: { 200: domainsAnswerSchema, 403: FORBIDDEN },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => teams.domains.setDomains(ctx(req), req.body)));
      },
    ],
  });

  rest.route(router, '/v1/team/domains/:domain/check', {
    post: [
      {
        name: 'check_domain', limited: 'team_domain_check',
        summary: 'Check Domain',
        description: "Owner or admin: looks the domain's TXT record up now; verified when it carries the workspace's token (and no other workspace holds the domain with its record still published).",
        tags,
        access: 'account',
        params: { domain: 'A domain listed in your workspace (Unicode or its ASCII form).' },
        responses: { 200: domainRecordSchema, 403: FORBIDDEN, 404: 'The domain is not listed in your workspace' },
      },
      async (req, res) => {
        res.json(await withLoc('path', () => teams.domains.checkDomain(ctx(req), String(req.params.domain))));
      },
    ],
  });

  rest.route(router, '/v1/team/members/:member_user_id', {
    patch: [
      { name: 'change_member_role', limited: 'team_member_role', summary: 'Change Member Role', description: 'Owner only.', tags, access: 'account', body: roleRequestSchema, responses: { 200: memberAnswerSchema, 403: FORBIDDEN, 404: 'Not a member of your workspace', 409: "The owner's role" } },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc({ member_user_id: 'path', '*': 'body' }, () => teams.membership.changeRole(ctx(req), String(req.params.member_user_id), req.body)));
      },
    ],
    delete: [
      { name: 'remove_member', limited: 'team_member_remove', summary: 'Remove Member', description: 'Leave (any member but the owner) or remove (owner; admins: members only).', tags, access: 'account', responses: { 200: removedAnswerSchema, 403: FORBIDDEN, 404: 'Not a member of your workspace', 409: 'The owner cannot leave' } },
      async (req, res) => {
        res.json(await withLoc('path', () => teams.membership.removeMember(ctx(req), String(req.params.member_user_id))));
      },
    ],
  });

  rest.route(router, '/v1/team/seats', {
    post: [
      {
        name: 'set_seats', limited: 'team_seats',
        summary: 'Set Seats',
        description: 'Owner only: changes the Stripe subscription quantity; seat_limit follows when Stripe reports the update.',
        tags,
        access: 'account',
        body: seatsRequestSchema,
        responses: { 200: seatsAnswerSchema, 403: FORBIDDEN, 409: 'Below the seats in use, or no subscription', 502: 'Stripe failed' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => teams.membership.setSeats(ctx(req), req.body)));
      },
    ],
  });

  return router;
}
