// The landing page's example search (served at /landing-search.js; src/http/landing-page.ts):
// posts the form to POST /v1/search as an anonymous caller, the same request as the curl command
// on the page, and lists the hits. Only textContent is written, never HTML from the answer.
(() => {
  const form = document.getElementById('example-search');
  const out = document.getElementById('example-results');
  if (!form || !out) return;
  const el = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const say = (text, className) => out.replaceChildren(el('p', text, className));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const button = form.querySelector('button');
    button.disabled = true;
    say('Searching…');
    try {
      const res = await fetch('/v1/search', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ q: String(data.get('q') || ''), namespace: String(data.get('namespace')), top_k: 5 }),
      });
      const body = await res.json().catch(() => null);
      if (res.status === 429) {
        const wait = res.headers.get('Retry-After');
        return say(`The anonymous allowance is used up${wait ? `: try again in ${wait} seconds` : ''}, or create a free account for more.`, 'error');
      }
      if (!res.ok) {
        const detail = body && body.detail;
        const text = Array.isArray(detail) ? detail.map((d) => d.msg).join('; ') : detail || `The search failed (HTTP ${res.status}).`;
        return say(text, 'error');
      }
      const hits = body.hits || [];
      const list = el('ol', '', 'hits');
      for (const hit of hits) {
        const item = el('li');
        item.append(el('strong', hit.title || hit.source_id));
        item.append(el('div', [hit.source, hit.court, hit.date].filter(Boolean).join(' · '), 'hit-meta'));
        if (hit.snippet) item.append(el('p', hit.snippet));
        list.append(item);
      }
      out.replaceChildren(el('p', `${hits.length} of ${body.total_hits} hits in ${body.elapsed_ms} ms.`), list);
    } catch {
      say('The search could not reach the server; try again.', 'error');
    } finally {
      button.disabled = false;
    }
  });
})();
