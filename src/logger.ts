/** A small leveled logger: one line per event, secrets never passed in. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
  readonly level: LogLevel;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const emit = (at: LogLevel, message: string) => {
    if (ORDER[at] >= ORDER[level]) write(`${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} ${message}`);
  };
  return {
    level,
    debug: (m) => emit('debug', m),
    info: (m) => emit('info', m),
    warn: (m) => emit('warn', m),
    error: (m, e) => emit('error', e instanceof Error ? `${m}: ${e.stack ?? e.message}` : m),
  };
}
