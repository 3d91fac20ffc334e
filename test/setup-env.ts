// Tests never read the developer's environment for service settings: each test builds its config.
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
