/**
 * The audit log in words: each action's name, and an entry's before/after (JSON text from the
 * server) as "label: value" lines, plan slugs named, nested records flattened ("Override plan:
 * Professional Plus"), null as "none"; the lines that changed are marked.
 */

/** The actions as the log writes them, their GraphQL enum values and their names. */
export const AUDIT_ACTIONS = {
  'user.plan_override': { value: 'user_plan_override', label: 'Plan override' },
  'user.erase': { value: 'user_erase', label: 'Account erased' },
  'user.partner_scope': { value: 'user_partner_scope', label: 'Partner scope set' },
  'user.partner_remove': { value: 'user_partner_remove', label: 'Partner scope removed' },
  'feedback.status': { value: 'feedback_status', label: 'Feedback status' },
  'feedback.mark_forwarded': { value: 'feedback_mark_forwarded', label: 'Feedback forwarded' },
} as const;

export function actionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, { label: string }>)[action]?.label ?? action;
}

export interface ChangeLine {
  label: string;
  value: string;
  changed: boolean;
}

const PLAN_KEYS = /(^|_)plan$/;

function words(path: string[]): string {
  const text = path.join(' ').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function flatten(value: unknown, path: string[], out: Map<string, { path: string[]; value: unknown }>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    // an empty record reads as "none" under its own name
    if (entries.length === 0 && path.length > 0) out.set(path.join('.'), { path, value: null });
    for (const [key, inner] of entries) flatten(inner, [...path, key], out);
    return;
  }
  out.set(path.join('.') || 'value', { path: path.length ? path : ['value'], value });
}

function parse(json: string | null | undefined): Map<string, { path: string[]; value: unknown }> {
  const out = new Map<string, { path: string[]; value: unknown }>();
  if (json === null || json === undefined) return out;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = json;
  }
  if (value === null) return out;
  flatten(value, [], out);
  return out;
}

function show(key: string, value: unknown, planName: (slug: string) => string): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.length ? value.map((v) => show(key, v, planName)).join(', ') : 'none';
  if (typeof value === 'string' && PLAN_KEYS.test(key.split('.').at(-1) ?? '')) return planName(value);
  return String(value);
}

/** An entry's before and after as lines; a line is `changed` when the other side differs (or lacks it). */
export function changeLines(beforeJson: string | null | undefined, afterJson: string | null | undefined, planName: (slug: string) => string): { before: ChangeLine[]; after: ChangeLine[] } {
  const before = parse(beforeJson);
  const after = parse(afterJson);
  const side = (mine: typeof before, other: typeof before): ChangeLine[] =>
    [...mine].map(([key, { path, value }]) => {
      const text = show(key, value, planName);
      const otherValue = other.get(key);
      return { label: words(path), value: text, changed: !otherValue || show(key, otherValue.value, planName) !== text };
    });
  return { before: side(before, after), after: side(after, before) };
}
