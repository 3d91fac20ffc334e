/**
 * A real DNS server (dns2, UDP) on an ephemeral local port: the zone is a map the test edits
 * (TXT records by name); a name can be made to fail (SERVFAIL) or to go unanswered (a timeout).
 * Names it does not hold answer NXDOMAIN. Every query is recorded, so a test can count lookups.
 * Platforms under test point `DNS_SERVERS` at `servers`: no network is ever used.
 */
import dns2 from 'dns2';

const { Packet } = dns2;

export interface TestDns {
  /** `127.0.0.1:<port>`: the value for DNS_SERVERS. */
  servers: string;
  /** Every question received: `TYPE name` (lower case). */
  queries: string[];
  /**
   * Replaces the TXT records of `name` (an empty list: the name exists, no TXT record); a record
   * given as a list goes out as that many character-strings (as records over 255 bytes do).
   */
  setTxt(name: string, records: (string | string[])[]): void;
  /** Removes `name` and its failure mode: NXDOMAIN from now on. */
  remove(name: string): void;
  /** `servfail`: answers SERVFAIL for `name`; `silent`: never answers (the client times out). */
  fail(name: string, how: 'servfail' | 'silent'): void;
  stop(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and an ephemeral UDP port. */
export async function startTestDns(): Promise<TestDns> {
  const txt = new Map<string, (string | string[])[]>();
  const failing = new Map<string, 'servfail' | 'silent'>();
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = String(question?.name ?? '').toLowerCase().replace(/\.$/, '');
      const type = Object.entries(Packet.TYPE).find(([, code]) => code === question?.type)?.[0] ?? String(question?.type);
      queries.push(`${type} ${name}`);
      const failure = failing.get(name);
      if (failure === 'silent') return;
      if (failure === 'servfail') {
        response.header.rcode = Packet.RCODE.SERVFAIL;
        send(response);
        return;
      }
      const records = txt.get(name);
      if (!records) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question?.type === Packet.TYPE.TXT) {
        for (const data of records) response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 0, data } as never);
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (addresses as { udp: { port: number } }).udp.port;
  return {
    servers: `127.0.0.1:${port}`,
    queries,
    setTxt(name, records) {
      failing.delete(name.toLowerCase());
      txt.set(name.toLowerCase(), [...records]);
    },
    remove(name) {
      failing.delete(name.toLowerCase());
      txt.delete(name.toLowerCase());
    },
    fail(name, how) {
      failing.set(name.toLowerCase(), how);
    },
    async stop() {
      await server.close();
    },
  };
}
