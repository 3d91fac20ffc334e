/**
 * What went wrong with a call, in words a person can act on. Every call the dashboard makes
 * (GraphQL or /auth) ends in data or in one ApiError; the pages show it with <ErrorState>.
 */
export type ApiErrorKind =
  /** Not signed in (401 / UNAUTHENTICATED): the app sends the person to sign-in and back. */
  | 'unauthenticated'
  /** Signed in but not allowed (403 / FORBIDDEN). */
  | 'forbidden'
  /** Too many requests (429 / RATE_LIMITED); `retryAfterSeconds` says how long to wait. */
  | 'rate_limited'
  /** The input was refused (422 / BAD_USER_INPUT); `fields` maps a field to its message. */
  | 'validation'
  | 'not_found'
  | 'conflict'
  /** The server could not be reached. */
  | 'network'
  /** Anything else the server reported. */
  | 'server';

export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  /** The refused value, when the server sent it back (a list item's text names the bad entry). */
  input?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly retryAfterSeconds: number | null;
  readonly issues: FieldIssue[];

  constructor(kind: ApiErrorKind, message: string, options: { status?: number | null; retryAfterSeconds?: number | null; issues?: FieldIssue[] } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = options.status ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.issues = options.issues ?? [];
  }

  /** The issues of `field` (its own, or of its list's items) as sentences, if any (for a form field's error). */
  fieldMessage(field: string): string | undefined {
    const mine = this.issues.filter((i) => fieldOf(i.loc) === field);
    return mine.length > 0 ? mine.map(issueSentence).join(' ') : undefined;
  }

  /** The issues about items of the list `field` (`emails.1`), with the refused value: the page names them and can send the rest. */
  itemIssues(field: string): { index: number; input: unknown; sentence: string }[] {
    return this.issues
      .filter((i) => fieldOf(i.loc) === field && typeof i.loc[i.loc.length - 1] === 'number')
      .map((i) => ({ index: i.loc[i.loc.length - 1] as number, input: i.input, sentence: issueSentence(i) }));
  }
}

const KIND_BY_STATUS: Record<number, ApiErrorKind> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'validation',
  429: 'rate_limited',
};

const KIND_BY_CODE: Record<string, ApiErrorKind> = {
  UNAUTHENTICATED: 'unauthenticated',
  FORBIDDEN: 'forbidden',
  RATE_LIMITED: 'rate_limited',
  BAD_USER_INPUT: 'validation',
  GRAPHQL_VALIDATION_FAILED: 'validation',
  BAD_REQUEST: 'validation',
  NOT_FOUND: 'not_found',
  CONFLICT: 'conflict',
};

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
export function retryAfterOf(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The FastAPI-style `detail` (a string, or a list of issues) in words. */
export function detailText(detail: unknown): { message: string; issues: FieldIssue[] } {
  if (typeof detail === 'string') return { message: detail, issues: [] };
  if (Array.isArray(detail)) {
    const issues = detail
      .filter((d): d is { loc?: unknown; msg?: unknown } => typeof d === 'object' && d !== null)
      .map((d) => ({ loc: Array.isArray(d.loc) ? (d.loc as (string | number)[]) : [], msg: String(d.msg ?? 'invalid'), ...('input' in d ? { input: (d as { input?: unknown }).input } : {}) }));
    const message = issues.map(issueSentence).join(' ') || 'The request was refused.';
    return { message, issues };
  }
  return { message: 'The request was refused.', issues: [] };
}

/** Where a value sits in a request, not a field a person filled in. */
const CONTAINERS = new Set(['body', 'query', 'path', 'input', 'args']);

/** The field an issue is about: the last name in its loc (`['body', 'emails', 1]` → `emails`). */
function fieldOf(loc: (string | number)[]): string | undefined {
  return loc.filter((p): p is string => typeof p === 'string' && !CONTAINERS.has(p)).at(-1);
}

/** Field names of the API in the words of the forms (others: `date_start` → "Date start"). */
const FIELD_WORDS: Record<string, string> = {
  emails: 'E-mail address',
  email: 'E-mail',
  domains: 'Domain',
  password: 'Password',
  q: 'Query',
  top_k: 'Number of results',
  topK: 'Number of results',
  date_start: 'From date',
  dateStart: 'From date',
  date_end: 'To date',
  dateEnd: 'To date',
  reference: 'Citation',
  name: 'Name',
  quantity: 'Seats',
};

function fieldWords(field: string): string {
  const words = FIELD_WORDS[field] ?? field.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * One 422 issue as a sentence a person can act on: "Password: String should have at least 10
 * characters." A list item names its value: "“bob@” is not a valid e-mail address: …" (never
 * `emails.1: Value error, …`).
 */
export function issueSentence(issue: FieldIssue): string {
  const msg = issue.msg.replace(/^Value error,\s*/i, '').replace(/\bemail address\b/g, 'e-mail address').trim();
  const field = fieldOf(issue.loc);
  const item = typeof issue.loc[issue.loc.length - 1] === 'number' && typeof issue.input === 'string' ? issue.input : null;
  const notValid = /^(?:value is )?not a valid (.+)$/is.exec(msg);
  if (item !== null && notValid) return sentence(`“${item}” is not a valid ${notValid[1]}`);
  const subject = [field ? fieldWords(field) : null, item !== null ? `“${item}”` : null].filter(Boolean).join(' ');
  return sentence(subject ? `${subject}: ${msg}` : msg.charAt(0).toUpperCase() + msg.slice(1));
}

/** An HTTP error answer (non-2xx) as an ApiError, reading `detail` from a JSON body when there is one. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let message = res.statusText || `HTTP ${res.status}`;
  let issues: FieldIssue[] = [];
  try {
    const body = (await res.json()) as { detail?: unknown };
    if (body && body.detail !== undefined) ({ message, issues } = detailText(body.detail));
  } catch {
    // not JSON: keep the status text
  }
  const kind = KIND_BY_STATUS[res.status] ?? 'server';
  return new ApiError(kind, message, { status: res.status, retryAfterSeconds: retryAfterOf(res.headers.get('retry-after')), issues });
}

interface GraphqlErrorShape {
  message?: string;
  extensions?: { code?: string; retryAfterSeconds?: number; issues?: unknown };
}

/** The first GraphQL error of an answer as an ApiError (its extensions.code says which kind). */
export function errorFromGraphql(errors: GraphqlErrorShape[], status: number): ApiError {
  const first = errors[0] ?? {};
  const code = first.extensions?.code ?? '';
  const kind = KIND_BY_CODE[code] ?? KIND_BY_STATUS[status] ?? 'server';
  const issues = Array.isArray(first.extensions?.issues) ? detailText(first.extensions.issues).issues : [];
  const message = kind === 'validation' && issues.length > 0 ? detailText(first.extensions?.issues).message : (first.message ?? 'The request failed');
  return new ApiError(kind, message, { status, retryAfterSeconds: first.extensions?.retryAfterSeconds ?? null, issues });
}
