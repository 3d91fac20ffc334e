/**
 * The password rule the registration and reset forms show and check before sending: the
 * server's minimum length, read from the dashboard-config tag (one source: PASSWORD_MIN_LENGTH
 * in src/modules/accounts/passwords.ts). The server still checks it, and refuses common passwords.
 */
import { ApiError } from '../api/errors';
import { config } from './config';

/** The hint under a new-password field. */
export function passwordHint(): string {
  const min = config.passwordMinLength;
  return min ? `At least ${min} characters; a common password is refused.` : 'A long password; a common password is refused.';
}

/** The field's error when the password is too short (nothing is sent then), else null. */
export function passwordTooShort(password: string): ApiError | null {
  const min = config.passwordMinLength;
  if (!min || password.length >= min) return null;
  const msg = `The password is too short: use at least ${min} characters (this one has ${password.length}).`;
  return new ApiError('validation', msg, { issues: [{ loc: ['password'], msg }] });
}
