/**
 * Reading cookies from a Cookie header. One helper for every door and route, so a malformed
 * value (`session=%`, which decodeURIComponent rejects) is a missing or invalid credential
 * (401) and never an exception (500).
 */

/** Whether the header carries a non-empty cookie called `name` (well-formed or not). */
export function hasCookie(header: string | undefined, name: string): boolean {
  return rawCookie(header, name) !== null;
}

/** The decoded value of cookie `name`, or null when it is absent, empty or not valid percent-encoding. */
export function readCookie(header: string | undefined, name: string): string | null {
  const raw = rawCookie(header, name);
  if (raw === null) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function rawCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value ? value : null;
    }
  }
  return null;
}
