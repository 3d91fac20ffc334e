/**
 * The service's logger: pino (one JSON object per line on stderr) behind the small interface
 * the code base uses. Secrets are never passed in on purpose; redaction is the safety net for
 * structured fields that carry them anyway (a request's headers, an error's request options):
 * authorization headers, cookies, tokens, secrets and passwords are replaced by `[REDACTED]`.
 */
import { pino, stdSerializers, stdTimeFunctions, type Logger as PinoLogger } from 'pino';

/** LOG_LEVEL's values (docs/configuration.md); `silent` in tests. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Structured fields of a log line (redacted by the paths below). */
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, error?: unknown, fields?: LogFields): void;
  readonly level: LogLevel;
}

/** Keys whose values never reach the log, at the top level of a line and up to three levels down. */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  '["set-cookie"]',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'secret',
  'key',
  'api_key',
];

/** pino's redaction paths for SECRET_KEYS (its wildcard matches exactly one level). */
export const REDACTED_PATHS = [0, 1, 2, 3].flatMap((depth) =>
  SECRET_KEYS.map((key) => `${'*.'.repeat(depth)}${key}`.replace('.[', '[')),
);

/**
 * A logger at `level`; `write` receives each line (default: stderr, written synchronously so a
 * line logged just before `process.exit` is not lost).
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const destination = write ? { write: (line: string) => write(line.replace(/\n$/, '')) } : pino.destination({ fd: 2, sync: true });
  const log: PinoLogger = pino(
    {
      level,
      base: undefined, // no pid/hostname on every line
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: stdSerializers.err },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    },
    destination,
  );
  return {
    level,
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, error, fields) => log.error(error === undefined ? (fields ?? {}) : { ...fields, err: error }, message),
  };
}
