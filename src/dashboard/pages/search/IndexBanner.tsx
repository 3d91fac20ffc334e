/**
 * A banner while the search index is still being built: GET /ready answers 503 with the ingest's
 * progress until the corpus is indexed (search serves what is indexed meanwhile). Polled every
 * few seconds until ready; nothing is shown once it is (or when /ready cannot be read).
 */
import { useEffect, useState } from 'react';
import { formatNumber } from '../../components/format';

/** The part of the /ready body the banner reads (catalog.schema.ts readinessSchema). */
export interface Readiness {
  status: 'ready' | 'indexing' | 'starting';
  ingest: { phase: string; documents_done: number; documents_total: number | null; eta_seconds: number | null } | null;
}

const POLL_MS = 5000;

async function readReadiness(): Promise<Readiness | null> {
  try {
    const res = await fetch('/ready', { headers: { accept: 'application/json' } });
    const body = (await res.json()) as Readiness;
    return typeof body?.status === 'string' ? body : null;
  } catch {
    return null; // not reachable or not JSON: the search itself will say what is wrong
  }
}

/** The progress in words: "1,200 of 4,000 documents indexed (30 %), about 2 minutes left". */
export function progressText(r: Readiness): string {
  const i = r.ingest;
  if (!i) return r.status === 'starting' ? 'The service is starting.' : 'The index is being prepared.';
  const total = i.documents_total;
  const share = total ? ` (${Math.floor((100 * i.documents_done) / total)} %)` : '';
  const eta = i.eta_seconds !== null && i.eta_seconds > 0 ? `, about ${i.eta_seconds < 90 ? `${Math.ceil(i.eta_seconds)} seconds` : `${Math.ceil(i.eta_seconds / 60)} minutes`} left` : '';
  return `${formatNumber(i.documents_done)}${total ? ` of ${formatNumber(total)}` : ''} documents indexed${share}${eta} (${i.phase}).`;
}

export function IndexBanner() {
  const [readiness, setReadiness] = useState<Readiness | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const r = await readReadiness();
      if (!live) return;
      setReadiness(r);
      if (r && r.status !== 'ready') timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  if (!readiness || readiness.status === 'ready') return null;
  return (
    <div className="notice" role="status" data-testid="index-banner">
      <strong>The search index is still being built.</strong> Results may be incomplete until it is done. {progressText(readiness)}
    </div>
  );
}
