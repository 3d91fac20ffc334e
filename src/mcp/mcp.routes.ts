/**
 * The MCP door: `/mcp` (streamable HTTP, stateless: a server and a transport per POST) and
 * `/sse` (the legacy SSE transport: GET opens the stream, POST /sse/messages?sessionId=...
 * carries the client's messages). Both need `Authorization: Bearer` with an API key or an OAuth
 * access token of the platform's authorization server issued for that endpoint (the
 * authenticator checks its audience); without valid credentials they answer 401 with
 * `WWW-Authenticate: Bearer resource_metadata="<protected-resource metadata URL>", scope="mcp"`.
 *
 * Mounted after `authenticateRequests`, which has already turned the credentials into a caller.
 * Session cookies are not accepted here: a browser would send them cross-site.
 */
import type { RequestContexts } from '../context.js';
import { Router, type Request, type RequestHandler } from 'express';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isAccount, type AccountCaller } from '../context.js';
import type { SseLimits } from '../config.js';
import type { Logger } from '../logger.js';
import { protectedResourceChallenge } from '../oauth/protected-resource.js';
import { contextOf } from '../http/request-context.js';
import { bearerChallenge } from '../http/bearer-challenge.js';
import { SseSessionSlots, type SseSessionSlot } from '../modules/usage/sse-session-slots.js';
import { CALLER_KEY, createMcpServer } from './mcp-server.js';
import type { ToolServices } from './tools.js';

export const SSE_MESSAGES_PATH = '/sse/messages';

type AuthedRequest = Request & { auth?: AuthInfo };

interface SseSession {
  transport: SSEServerTransport;
  userId: string;
  slot: SseSessionSlot;
}

export interface McpDoor {
  router: Router;
  /** Ends the open SSE streams (the HTTP server cannot close while they are open). */
  close(): Promise<void>;
  /** Open SSE streams. */
  openStreams(): number;
}

/** Default caps on open SSE streams (the SSE_* variables' defaults, src/config.ts). */
export const DEFAULT_SSE_LIMITS: SseLimits = { maxSessions: 500, maxSessionsPerAccount: 5, maxSessionsPerIp: 20, maxSessionsUnverified: 1, idleTimeoutSeconds: 300 };

/** Seconds a client refused by a shutting-down process is told to wait: a restart or another instance takes over. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

/** Builds the MCP router over the shared services. */
export function mcpRouter(options: { services: ToolServices; contexts: RequestContexts; baseUrl: string; version: string; logger: Logger; sse?: SseLimits }): McpDoor {
  const { services, baseUrl, version, logger } = options;
  const limits = options.sse ?? DEFAULT_SSE_LIMITS;
  const router = Router();
  const sessions = new Map<string, SseSession>();
  const slots = new SseSessionSlots(limits);
  /** Set by close() (a shutdown): a stream opened after it would only hold the HTTP drain until its deadline. */
  let closing = false;
  const newServer = () => createMcpServer(services, { version, logger, contexts: options.contexts });

  router.post('/mcp', requireBearer(baseUrl, '/mcp'), async (req: AuthedRequest, res, next) => {
    try {
      const server = newServer();
      // Stateless: no session id; plain JSON answers (no SSE stream per POST).
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      next(error);
    }
  });
  // A stateless server offers no standalone SSE stream and no session to delete.
  router.all('/mcp', requireBearer(baseUrl, '/mcp'), (_req, res) => {
    res.setHeader('Allow', 'POST');
    res.status(405).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp' }, id: null });
  });

  router.get('/sse', requireBearer(baseUrl, '/sse'), openSseStream({ sessions, slots, newServer, isClosing: () => closing }));
  router.post(SSE_MESSAGES_PATH, requireBearer(baseUrl, '/sse'), postSseMessage(sessions));

  return {
    router,
    async close() {
      closing = true;
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      sessions.clear();
    },
    openStreams: () => sessions.size,
  };
}

/** GET /sse: opens a legacy SSE stream with its own MCP server, within the caller's stream slots. */
function openSseStream({ sessions, slots, newServer, isClosing }: { sessions: Map<string, SseSession>; slots: SseSessionSlots; newServer: () => McpServer; isClosing: () => boolean }): RequestHandler {
  return async (req: AuthedRequest, res, next) => {
    try {
      if (isClosing()) {
        res.setHeader('Retry-After', String(SHUTDOWN_RETRY_AFTER_SECONDS));
        res.status(503).json({ detail: 'The server is shutting down: open the stream again in a moment' });
        return;
      }
      const caller = req.auth!.extra![CALLER_KEY] as AccountCaller;
      // Each stream holds a socket and a server instance until the client leaves: the slots'
      // caps (429 past one) and idle timeout keep any one client from holding them all.
      let transport: SSEServerTransport | undefined;
      const slot = slots.claim(caller, () => void transport?.close());
      transport = new SSEServerTransport(SSE_MESSAGES_PATH, res);
      const sessionId = transport.sessionId;
      sessions.set(sessionId, { transport, userId: caller.userId, slot });
      const server = newServer();
      let closed = false;
      // server.close() closes the transport, which calls onclose again: close once.
      const end = () => {
        if (closed) return;
        closed = true;
        sessions.delete(sessionId);
        slot.release();
        void server.close();
      };
      transport.onclose = end;
      try {
        await server.connect(transport);
      } catch (error) {
        end(); // a stream that never started must not keep its slot
        throw error;
      }
    } catch (error) {
      next(error);
    }
  };
}

/** POST /sse/messages: a message of an open SSE stream, from the account that opened it. */
function postSseMessage(sessions: Map<string, SseSession>): RequestHandler {
  return async (req: AuthedRequest, res, next) => {
    try {
      const session = sessions.get(String(req.query.sessionId ?? ''));
      if (!session) {
        res.status(404).json({ detail: 'Unknown or closed SSE session: open a new one with GET /sse' });
        return;
      }
      // Each message is authenticated again (a revoked key stops at once) and must come from
      // the account that opened the stream.
      const caller = req.auth!.extra![CALLER_KEY] as AccountCaller;
      if (caller.userId !== session.userId) {
        res.status(403).json({ detail: 'This SSE session belongs to another account' });
        return;
      }
      session.slot.touch(); // the client is there: the stream is not idle
      await session.transport.handlePostMessage(req, res);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Lets through requests whose `Authorization: Bearer` authenticated an account and hands the
 * caller to the transports as AuthInfo (the tools read it from `extra.authInfo`); 401 with the
 * protected-resource metadata URL and the scope to ask for otherwise.
 *
 * Not the MCP SDK's `requireBearerAuth`: without credentials it answers `error="invalid_token"`
 * (RFC 6750 §3.1: a request without credentials gets no error code), its bodies are
 * `{error, error_description}` rather than the API's `{detail}`, it requires an expiry that API
 * keys do not have, and its verifier sees only the token, so the caller that
 * `authenticateRequests` already found (with the request's resource) would be looked up again.
 */
function requireBearer(baseUrl: string, resourcePath: string): RequestHandler {
  const challenge = protectedResourceChallenge(baseUrl, resourcePath);
  return (req: AuthedRequest, res, next) => {
    const caller = contextOf(req).caller;
    const authorization = req.header('authorization');
    if (authorization && isAccount(caller)) {
      req.auth = { token: authorization.replace(/^Bearer\s+/i, ''), clientId: caller.keyId ?? caller.userId, scopes: [], extra: { [CALLER_KEY]: caller } };
      return next();
    }
    const rejected = !isAccount(caller) && caller.rejected;
    // an invalid bearer token was already answered by authenticateRequests (the same challenge)
    res.setHeader('WWW-Authenticate', bearerChallenge({ error: rejected ? 'invalid_token' : undefined, description: rejected || undefined, ...challenge }));
    res.status(401).json({ detail: rejected || 'Not authenticated: send an API key or an OAuth access token as "Authorization: Bearer <token>"' });
  };
}
