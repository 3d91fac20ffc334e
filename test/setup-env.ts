// Tests never read the developer's environment for service settings: each test builds its config.
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
// Not set here on purpose: APOLLO_TELEMETRY_DISABLED. Unless it is set, @apollo/gateway (2.14)
// probes five cloud metadata endpoints (169.254.169.254, metadata.google.internal, ...) and exports
// usage metrics to Apollo; the service sets it itself (GRAPHQL_VENDOR_TELEMETRY, off by default),
// and the stray-network guard (test/network-guard.setup.ts) proves it by failing any test that
// sends them.
