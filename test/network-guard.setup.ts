/**
 * Jest's `setupFilesAfterEnv`: every test file runs with the stray-network guard on (see
 * test/helpers/network-guard.ts), and a test fails when it made a request to a non-loopback host,
 * even when the code under test caught the guard's error and carried on.
 */
import { afterAll, afterEach } from '@jest/globals';
import { startNetworkGuard, takeStrayRequests } from './helpers/network-guard.js';

// Started at load, not in beforeAll: the test file's own imports (and the clients they build)
// must already see the patched `fetch` and `http.request`.
const stop = startNetworkGuard();

afterEach(() => {
  const strays = takeStrayRequests();
  if (strays.length > 0) throw new Error(`the test made ${strays.length} stray outbound request(s), blocked by the network guard:\n  ${strays.join('\n  ')}`);
});

// Each test file loads this again in its own module registry, while node:http and friends are
// shared by the whole process: undo the patches so they do not pile up file after file.
afterAll(() => stop());
