/**
 * The rule of src/context.ts, checked by reading the source: inside a request, services and doors
 * use the request's unit of work (`ctx.em`). Only the files below fork the ORM's entity manager,
 * each for work that runs outside any request, and they do it through `backgroundEm(orm)` (or
 * `orm.em.fork()` in the composition root), so a new fork in a service fails here until it is
 * either moved onto `ctx.em` or listed with its reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Files allowed to fork outside a request, with the reason. */
const ALLOWED: Record<string, string> = {
  'src/context.ts': 'defines requestContexts (the one per-request fork) and backgroundEm',
  'src/platform.ts': 'composition root: the catalogue load and the readiness ping run outside requests',
  'src/oauth/signing-key.ts': 'start-up: the signing key is loaded or created before the app serves',
  'src/oauth/oidc-adapter.ts': "oidc-provider's storage adapter: the provider calls it without our request context",
  'src/modules/accounts/api-key.service.ts': 'authentication (it builds the caller before a context exists) and the fire-and-forget last_used_at touch',
  'src/modules/accounts/sessions.ts': 'authentication of sessions and the legal-acceptance token issued by signIn, shared by flows without a context',
  'src/modules/accounts/password-accounts.service.ts': 'the reset mail is built by the outbox after the response',
  'src/modules/teams/membership.service.ts': "membershipOf: authentication asks it for the caller's workspace before a context exists",
  'src/modules/teams/allowed-domains.service.ts': 'autoJoin: a sign-in hook (sessions.onSignIn) without a context',
  'src/modules/teams/domain-verifier.ts': "the domain re-check sweep; a check's answer applies to every workspace's claim in its own transaction",
  'src/modules/usage/usage.service.ts': 'seeds the process-wide in-memory counters from the database',
  'src/modules/usage/usage-recorder.ts': 'the batched usage writer flushes on a timer, after the requests',
  'src/modules/analytics/analytics-recorder.ts': 'the batched analytics writer flushes on a timer, after the requests',
  'src/modules/billing/credit-meter.ts': 'the process-wide credit balances: loaded once, consumption written in batches',
  'src/modules/billing/auto-topup.service.ts': 'top-ups run after the draw that triggered them; the settings cache is process-wide',
  'src/modules/billing/webhook.service.ts': "the payment provider's webhook has no caller",
  'src/modules/admin/stripe-cancellations.ts': 'the retry queue of owed cancellations runs on a timer',
  'src/modules/legal-data/catalog.store.ts': 'the ingest and start-up write the catalogue outside requests',
  'src/modules/legal-data/citator/citation-graph.store.ts': 'the ingest writes the citation graph outside requests (a document\'s links and checkpoint in one transaction)',
};

const FORK = /\borm\.em\.fork\(\)|\bbackgroundEm\(/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) {
      if (name !== 'dashboard' && name !== 'node_modules') out.push(...sourceFiles(rel));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
      out.push(rel);
    }
  }
  return out;
}

describe('one unit of work per request: the source rule', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('subgraphs')];

  it('forks the ORM only in the files allowed to, each with its reason', () => {
    const forking = files.filter((file) => readFileSync(path.join(ROOT, file), 'utf8').split('\n').some((line) => FORK.test(line) && !/^\s*(\*|\/\/)/.test(line)));
    expect(forking.filter((file) => !(file in ALLOWED))).toEqual([]);
  });

  it('lists no file that no longer forks (the list stays true)', () => {
    const stale = Object.keys(ALLOWED).filter((file) => !FORK.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(stale).toEqual([]);
  });
});
