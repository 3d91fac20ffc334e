/**
 * A local server speaking the part of GitHub's REST API the contributor credits read: the
 * issues and pulls listings of a repository (`state=all`, `per_page`, `page`, a `Link` header
 * with `rel="next"` as GitHub sends it), the token checked when one is expected, and a switch
 * that makes it fail like an outage.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GithubThreadFixture {
  number: number;
  title: string;
  body: string | null;
  user: { login: string; type: 'User' | 'Bot' };
  created_at: string;
  state: 'open' | 'closed';
  merged_at?: string | null;
  /** A pull request: the issues listing lists it too, with a `pull_request` member. */
  pull?: boolean;
}

export interface LocalGithub {
  url: string;
  threads: GithubThreadFixture[];
  /** Requests received, by path with query. */
  requests: string[];
  /** Answer every request with this status (null: answer normally). */
  failWith: number | null;
  stop(): Promise<void>;
}

export async function startLocalGithub(repo: string, options: { token?: string } = {}): Promise<LocalGithub> {
  const state: LocalGithub = { url: '', threads: [], requests: [], failWith: null, stop: async () => undefined };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(url.pathname + url.search);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (state.failWith !== null) return send(state.failWith, { message: 'Server Error' });
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    const match = new RegExp(`^/repos/${repo}/(issues|pulls)$`).exec(url.pathname);
    if (!match) return send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    const listing = match[1]!;
    const stateFilter = url.searchParams.get('state') ?? 'open';
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);
    const all = state.threads
      .filter((t) => (listing === 'pulls' ? t.pull : true))
      .filter((t) => stateFilter === 'all' || t.state === stateFilter)
      .sort((a, b) => b.number - a.number);
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const items = slice.map((t) => ({
      url: `${state.url}/repos/${repo}/${listing}/${t.number}`,
      number: t.number,
      title: t.title,
      body: t.body,
      user: { login: t.user.login, id: 1, type: t.user.type },
      state: t.state,
      created_at: t.created_at,
      updated_at: t.created_at,
      labels: [],
      ...(listing === 'pulls' ? { merged_at: t.merged_at ?? null } : {}),
      ...(listing === 'issues' && t.pull ? { pull_request: { url: `${state.url}/repos/${repo}/pulls/${t.number}` } } : {}),
    }));
    const headers: Record<string, string> = {};
    const last = Math.max(1, Math.ceil(all.length / perPage));
    if (page < last) {
      const next = new URL(url.toString());
      next.searchParams.set('page', String(page + 1));
      const lastUrl = new URL(url.toString());
      lastUrl.searchParams.set('page', String(last));
      headers.link = `<${state.url}${next.pathname}${next.search}>; rel="next", <${state.url}${lastUrl.pathname}${lastUrl.search}>; rel="last"`;
    }
    send(200, items, headers);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.stop = async () => {
    server.close();
    server.closeAllConnections();
    await once(server, 'close');
  };
  return state;
}
