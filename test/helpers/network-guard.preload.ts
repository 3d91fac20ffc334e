/**
 * Loaded with `--import` into the service started as an OS process by the tests
 * (test/helpers/service-process.ts): the same stray-network guard as in jest, so the service
 * under test cannot reach a non-loopback host either. Each blocked request is also written to
 * stderr as one line starting with STRAY_REQUEST_MARKER, which the helper turns into a failure.
 */
import { startNetworkGuard, STRAY_REQUEST_MARKER } from './network-guard.js';

startNetworkGuard((error) => process.stderr.write(`${STRAY_REQUEST_MARKER} ${error.url}\n`));
