// Tests never read the developer's environment for service settings: each test builds its config.
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
// @apollo/gateway (2.14) reads this itself: unless it is set, building a gateway probes five cloud
// metadata endpoints (169.254.169.254, metadata.google.internal, ...) and exports usage metrics to
// usage-reporting.api.apollographql.com. The stray-network guard (test/network-guard.setup.ts)
// fails any test that does. Outside tests the service still does it unless the operator sets it.
process.env.APOLLO_TELEMETRY_DISABLED = 'true';
