/** The TXT look-up against a real DNS server on a local port (no network). */
import { startTestDns, type TestDns } from '../../../test/helpers/dns-server.js';
import { createTxtLookup, type TxtLookup } from './dns-txt-lookup.js';

describe('TXT look-ups through the configured resolver', () => {
  let dns: TestDns;
  let lookup: TxtLookup;

  beforeAll(async () => {
    dns = await startTestDns();
    lookup = createTxtLookup({ servers: [dns.servers], timeoutMs: 200, tries: 1 });
  });
  afterAll(async () => {
    await dns?.stop();
  });

  it('asks the configured server and answers the records, each one with its strings joined', async () => {
    dns.setTxt('_challenge.firm.example', ['one', ['tw', 'o']]);
    const answer = await lookup('_challenge.firm.example');
    expect(answer.kind).toBe('records');
    expect(answer.kind === 'records' && answer.records.sort()).toEqual(['one', 'two']);
    expect(dns.queries).toContain('TXT _challenge.firm.example');
  });

  it('takes NXDOMAIN and a name without TXT records as answers with no record', async () => {
    expect(await lookup('_challenge.nowhere.example')).toEqual({ kind: 'records', records: [] });
    dns.setTxt('_challenge.empty.example', []);
    expect(await lookup('_challenge.empty.example')).toEqual({ kind: 'records', records: [] });
  });

  it('reports SERVFAIL, a silent server (timeout) and a cancelled look-up as no usable answer', async () => {
    dns.fail('_challenge.broken.example', 'servfail');
    expect(await lookup('_challenge.broken.example')).toEqual({ kind: 'error', code: 'ESERVFAIL' });
    dns.fail('_challenge.slow.example', 'silent');
    const started = Date.now();
    expect(await lookup('_challenge.slow.example')).toEqual({ kind: 'error', code: 'ETIMEOUT' });
    expect(Date.now() - started).toBeLessThan(5000);
    const abort = new AbortController();
    const pending = lookup('_challenge.slow.example', abort.signal);
    abort.abort();
    expect(await pending).toEqual({ kind: 'error', code: 'ECANCELLED' });
  });
});
