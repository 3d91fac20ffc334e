/**
 * A minimal browser for end-to-end tests of pages and redirects: a cookie jar that honours each
 * cookie's Path and expiry (so path-scoped cookies are sent only where a browser would send
 * them), manual redirects, and form posts.
 */

interface StoredCookie {
  name: string;
  value: string;
  path: string;
  expires: number;
}

export interface PageResponse {
  status: number;
  url: string;
  location: string | null;
  headers: Headers;
  text: string;
}

export class Browser {
  private readonly cookies = new Map<string, StoredCookie>();

  /** GET without following redirects. */
  get(url: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.request(url, { method: 'GET', headers });
  }

  /** POST a form (`application/x-www-form-urlencoded`), as an HTML form submission does. */
  postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** POST JSON (a script on the page, or an API client). */
  postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body) });
  }

  /** Follows redirects from `url` until `stop(location)` holds (answers that location) or a non-redirect (answers that page). */
  async follow(url: string, stop: (location: URL) => boolean): Promise<{ stoppedAt: URL | null; page: PageResponse; trail: string[] }> {
    const trail: string[] = [];
    let next = url;
    for (let hop = 0; hop < 20; hop++) {
      const page = await this.get(next);
      trail.push(`${page.status} ${new URL(next).pathname}`);
      if (page.status < 300 || page.status >= 400 || !page.location) return { stoppedAt: null, page, trail };
      const location = new URL(page.location, next);
      if (stop(location)) return { stoppedAt: location, page, trail };
      next = location.href;
    }
    throw new Error(`too many redirects: ${trail.join(' -> ')}`);
  }

  /** The names of the cookies this browser would send to `url`. */
  cookieNamesFor(url: string): string[] {
    return this.matching(new URL(url)).map((c) => c.name);
  }

  private async request(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<PageResponse> {
    const target = new URL(url);
    const cookie = this.matching(target)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const res = await fetch(target, { ...init, headers: { ...init.headers, ...(cookie ? { cookie } : {}) }, redirect: 'manual' });
    for (const set of res.headers.getSetCookie()) this.store(set, target);
    return { status: res.status, url, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
  }

  private store(header: string, from: URL): void {
    const [pair, ...attributes] = header.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    let path = from.pathname.replace(/\/[^/]*$/, '') || '/';
    let expires = Infinity;
    for (const attribute of attributes) {
      const [key, val = ''] = attribute.split('=');
      if (key!.toLowerCase() === 'path') path = val || '/';
      if (key!.toLowerCase() === 'max-age') expires = Date.now() + Number(val) * 1000;
      if (key!.toLowerCase() === 'expires' && expires === Infinity) expires = Date.parse(val);
    }
    const key = `${name};${path}`;
    if (expires <= Date.now() || value === '') this.cookies.delete(key);
    else this.cookies.set(key, { name, value, path, expires });
  }

  private matching(url: URL): StoredCookie[] {
    const now = Date.now();
    return [...this.cookies.values()].filter(
      (c) => c.expires > now && (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)),
    );
  }
}

/** The value of `<input name="…" value="…">` in a page (HTML-unescaped). */
export function inputValue(html: string, name: string): string | null {
  const match = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  return match ? unescapeHtml(match[1]!) : null;
}

/** The `action` of the form whose submit button says `buttonText`. */
export function formAction(html: string, buttonText: RegExp): string | null {
  for (const form of html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (buttonText.test(form[2]!)) return unescapeHtml(form[1]!);
  }
  return null;
}

const NAMED_ENTITIES: Record<string, string> = { quot: '"', lt: '<', gt: '>', amp: '&' };

/** Decimal, hexadecimal and the named entities React and the hand-written pages produce. */
function unescapeHtml(value: string): string {
  return value.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(quot|lt|gt|amp));/gi, (_, dec: string | undefined, hex: string | undefined, name: string | undefined) =>
    dec ? String.fromCharCode(Number(dec)) : hex ? String.fromCharCode(parseInt(hex, 16)) : NAMED_ENTITIES[name!.toLowerCase()]!,
  );
}
