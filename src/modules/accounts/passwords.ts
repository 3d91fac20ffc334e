/**
 * Password hashing (argon2id, OWASP's recommended parameters as @node-rs/argon2 defaults them:
 * 19 MiB, 2 iterations) and the password policy: at least 10 characters, not one of the most
 * common passwords.
 */
import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's `Algorithm.Argon2id` (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The most common passwords of at least 10 characters in public breach lists (shorter ones are
 * refused by the length rule anyway). Compared case-insensitively.
 */
const COMMON_PASSWORDS = new Set([
  '1234567890', '0123456789', '0987654321', '1111111111', '0000000000', '1234512345', '1122334455',
  '1q2w3e4r5t', 'q1w2e3r4t5', 'qwertyuiop', 'asdfghjkl;', 'zxcvbnm123', 'qwerty1234', 'qwerty12345',
  'qwerty123456', '1qaz2wsx3edc', 'password12', 'password123', 'password1234', 'password!!',
  'passw0rd123', 'p@ssw0rd123', 'iloveyou12', 'iloveyou123', 'princess12', 'sunshine12',
  'football12', 'football123', 'baseball12', 'welcome123', 'welcome1234', 'letmein123', 'admin12345',
  'administrator', 'changeme123', 'trustno1234', 'monkey12345', 'dragon12345', 'master12345',
  'superman123', 'starwars123', 'abcdefghij', 'abcd123456', 'abc1234567', 'a1b2c3d4e5', 'aaaaaaaaaa',
  'qazwsxedcrfv', 'zaq12wsxcde3', 'computer123', 'internet123', 'whatever123', 'michael123',
  'jennifer123', 'jordan2323', 'liverpool1', 'chocolate1', 'basketball', 'basketball1', 'football1!',
  'passwordpassword', 'mypassword', 'mypassword1', 'secret1234', 'default123', 'test123456',
  'testtesttest', 'usuario123', 'contraseña1', 'motdepasse', 'motdepasse1', 'passwort123', 'hallo12345',
]);

/** Why a new password is refused, or null when it is acceptable (length is checked by the schema). */
export function passwordWeakness(password: string): string | null {
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return 'this password is too common, choose another one';
  if (new Set(password).size === 1) return 'this password is a single repeated character';
  return null;
}

/** argon2id PHC string of `password`. */
export function hashPassword(password: string): Promise<string> {
  argon2Work.hashes++;
  return hash(password, { algorithm: ARGON2ID });
}

/**
 * How many argon2 verifications and hashes this process has run: the sign-in and registration
 * throttles exist to bound these, and the tests read the counts to prove they do.
 */
export const argon2Work = { verifications: 0, hashes: 0 };

/** True when `password` matches the PHC string; false (never throws) for malformed hashes. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  argon2Work.verifications++;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, verified against when the e-mail is unknown so that a wrong
 * e-mail costs the same argon2 work as a wrong password (no timing oracle for account existence).
 */
let dummyHash: Promise<string> | null = null;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`);
  return dummyHash;
}
