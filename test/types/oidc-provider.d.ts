// oidc-provider ships no type declarations; the tests only start it as a local OpenID provider.
declare module 'oidc-provider';
