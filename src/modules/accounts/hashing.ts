/** Small helpers of the accounts module: SHA-256 of tokens and keys, and the unique-violation test. */
import { createHash } from 'node:crypto';

/** Hex SHA-256: how API keys, session tokens and one-time tokens are stored (they carry enough randomness for a fast hash). */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** True for a unique-constraint violation, whichever driver raised it. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; name?: string; message?: string } | null;
  return e?.name === 'UniqueConstraintViolationException' || e?.code === '23505' || /duplicate key|unique constraint/i.test(e?.message ?? '');
}
