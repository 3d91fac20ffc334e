/**
 * What the server tells the dashboard about itself, in a <meta name="dashboard-config"> tag the
 * service writes into index.html (src/http/dashboard.ts): which sign-in methods exist and
 * whether billing is on. In `npm run dev:dashboard` the tag is absent: everything optional is off
 * except what DASHBOARD_* variables of the dev server say (see vite.config.ts).
 */
export interface DashboardConfig {
  /** Configured identity providers (github, google, microsoft): one button each. */
  identityProviders: string[];
  /** DEV_LOGIN=true on the server. */
  devLogin: boolean;
  /** Billing (Stripe) configured on the server. */
  billing: boolean;
  /** The service's public base URL (MCP endpoint URLs are built from it). */
  baseUrl: string;
  /** The current terms version (TERMS_VERSION), named by the registration checkboxes. */
  termsVersion: string | null;
  /** The server's minimum password length (PASSWORD_MIN_LENGTH); null without the tag (the dev server), when only the server checks. */
  passwordMinLength: number | null;
  /** Where the terms, the privacy notice and the data processing agreement are read (LEGAL_*_URL or /legal/*). */
  legal: { terms: string; privacy: string; dataProcessing: string };
  /** ALLOW_ANONYMOUS on the server. */
  anonymousSearch: boolean;
}

function read(): DashboardConfig {
  const fallback: DashboardConfig = {
    identityProviders: [],
    devLogin: false,
    billing: false,
    baseUrl: window.location.origin,
    termsVersion: null,
    passwordMinLength: null,
    legal: { terms: '/legal/terms', privacy: '/legal/privacy', dataProcessing: '/legal/data-processing' },
    anonymousSearch: false,
  };
  const meta = document.querySelector<HTMLMetaElement>('meta[name="dashboard-config"]');
  if (!meta?.content) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(meta.content) as Partial<DashboardConfig>) };
  } catch {
    return fallback;
  }
}

export const config: DashboardConfig = read();

/** The public origin for URLs shown to people (the page's own origin when BASE_URL names no real port, as in tests). */
export function publicOrigin(): string {
  return /:0$/.test(config.baseUrl) ? window.location.origin : config.baseUrl;
}
