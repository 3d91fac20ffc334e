/**
 * Reading cookies from a Cookie header, parsed by the `cookie` package (the parser express's own
 * `res.cookie` serialiser comes from). One helper for every door and route, so a malformed value
 * (`session=%`, which decodeURIComponent rejects) is a missing or invalid credential (401) and never
 * an exception (500). Setting cookies stays with express's `res.cookie` / `res.clearCookie`.
 */
import { parseCookie } from 'cookie';

/**
 * The package's parse leaves values raw here (identity decode): its default decoder would keep a
 * malformed value as is, and a decoder returning undefined would fall through to a later cookie of
 * the same name; we want the first occurrence to decide, and a malformed one to read as absent.
 */
const KEEP_RAW = { decode: (value: string) => value };

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
  return parseCookie(header, KEEP_RAW)[name] || null;
}
