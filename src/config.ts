/**
 * The only reader of `process.env`. Every setting is documented in the README's
 * configuration table; an invalid value stops the boot with a readable list of problems.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const DEFAULT_CORPUS = path.resolve('../shared/corpus');

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  BASE_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for embedded PGlite)')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  CORPUS_DIR: z.string().min(1).optional(),
  SEARCH_ENGINE: z.enum(['embedded']).default('embedded'),
  EMBEDDER: z
    .string()
    .regex(/^(none|static:.+)$/, 'must be "none" or "static:<model directory>"')
    .default('none'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  INGEST_ON_START: booleanFlag.default(true),
  SUBGRAPH_URLS: z
    .string()
    .regex(/^([a-z-]+=https?:\/\/\S+)(,[a-z-]+=https?:\/\/\S+)*$/, 'must be name=url pairs separated by commas')
    .optional(),
});

export type EmbedderSetting = { kind: 'none' } | { kind: 'static'; dir: string };

export interface Config {
  port: number;
  baseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  corpusDir: string | undefined;
  searchEngine: 'embedded';
  embedder: EmbedderSetting;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  ingestOnStart: boolean;
  /** Remote subgraph URLs by subgraph name; subgraphs not named run in-process. */
  subgraphUrls: Record<string, string>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration from an environment (process.env by default). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got ${JSON.stringify(raw[String(issue.path[0])])})`),
    );
  }
  const e = parsed.data;
  const corpusDir = e.CORPUS_DIR ?? (existsSync(DEFAULT_CORPUS) ? DEFAULT_CORPUS : undefined);
  if (e.CORPUS_DIR && !existsSync(e.CORPUS_DIR)) {
    throw new ConfigError([`CORPUS_DIR: folder does not exist (got "${e.CORPUS_DIR}")`]);
  }
  const embedder: EmbedderSetting =
    e.EMBEDDER === 'none' ? { kind: 'none' } : { kind: 'static', dir: path.resolve(e.EMBEDDER.slice('static:'.length)) };
  return {
    port: e.PORT,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    corpusDir: corpusDir ? path.resolve(corpusDir) : undefined,
    searchEngine: e.SEARCH_ENGINE,
    embedder,
    logLevel: e.LOG_LEVEL,
    ingestOnStart: e.INGEST_ON_START,
    subgraphUrls: Object.fromEntries(
      (e.SUBGRAPH_URLS ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('=', 2) as [string, string]),
    ),
  };
}
