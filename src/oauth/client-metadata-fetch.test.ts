import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertPublicHost, clientMetadataFetch, isPublicAddress, PrivateAddressError } from './client-metadata-fetch.js';

describe('client metadata document fetch: the address rule', () => {
  it('tells public addresses from private, loopback, link-local and other special-use ones', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '2a00:1450:4001:80b::200e']) expect([address, isPublicAddress(address)]).toEqual([address, true]);
    const inside = ['127.0.0.1', '127.1.2.3', '10.0.0.5', '172.16.4.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255'];
    const inside6 = ['::1', '::', 'fe80::1', 'fd00::1', 'fc00::2', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::', 'ff02::1'];
    for (const address of [...inside, ...inside6]) expect([address, isPublicAddress(address)]).toEqual([address, false]);
    expect(isPublicAddress('not an address')).toBe(false);
  });

  it('refuses IP literals and names that resolve inside (localhost through the real resolver)', async () => {
    for (const url of ['https://127.0.0.1/client.json', 'https://[::1]/c', 'https://[::ffff:127.0.0.1]/c', 'https://169.254.169.254/latest', 'https://localhost:8443/client.json']) {
      await expect(assertPublicHost(new URL(url))).rejects.toBeInstanceOf(PrivateAddressError);
    }
    await expect(assertPublicHost(new URL('https://93.184.216.34/client.json'))).resolves.toBeUndefined();
  });

  it('fetches nothing from a private address unless allowPrivate', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
    try {
      await expect(clientMetadataFetch({ allowPrivate: false })(url, { method: 'GET' })).rejects.toThrow(/127\.0\.0\.1, a private or special-use address/);
      expect(requests).toBe(0);
      const allowed = await clientMetadataFetch({ allowPrivate: true })(url, { method: 'GET' });
      expect([allowed.status, await allowed.text(), requests]).toEqual([200, '{}', 1]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
