/** The usage breakdown's rows as the table shows them and as its CSV holds them: one source for both. */

export interface BreakdownRow {
  key_id?: string | null;
  key_name?: string | null;
  key_prefix?: string | null;
  key_revoked?: boolean | null;
  endpoint: string;
  requests: number;
}

/** What the key column says: its name and masked prefix, "(revoked)", or how a call without a key was made. */
export function keyLabel(row: BreakdownRow): string {
  if (!row.key_id) return 'No key (signed-in dashboard or OAuth agent)';
  return `${row.key_name ?? 'Deleted key'}${row.key_prefix ? ` (${row.key_prefix})` : ''}${row.key_revoked ? ', revoked' : ''}`;
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The CSV of the table: a header, one line per key and endpoint in the table's order, and the range in every line. */
export function breakdownCsv(rows: BreakdownRow[], range: { from: string; to: string }): string {
  const header = ['from', 'to', 'key', 'key_id', 'endpoint', 'requests'];
  const lines = rows.map((r) => [range.from, range.to, keyLabel(r), r.key_id ?? '', r.endpoint, String(r.requests)].map(csvField).join(','));
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}

/** Each key's total over its endpoints, most first (the summary above the table). */
export function totalsPerKey(rows: BreakdownRow[]): { label: string; requests: number }[] {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(keyLabel(r), (totals.get(keyLabel(r)) ?? 0) + r.requests);
  return [...totals].map(([label, requests]) => ({ label, requests })).sort((a, b) => b.requests - a.requests || a.label.localeCompare(b.label));
}
