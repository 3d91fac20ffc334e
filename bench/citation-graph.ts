/**
 * `npm run bench:citation-graph`: the citation graph phase of the ingest (issue 37, item 1) on
 * the real corpus (SHARED_CORPUS_DIR, default ../shared/corpus), into a fresh embedded PGlite (the
 * first start's store) made from the migrated test template. Prints the reference index's build
 * (shared with the citation counts, paid by the ingest already), the graph's build, its links and
 * unresolved citations, the storage it adds (the three tables with their indexes), a re-run on
 * the same files (nothing relinked), the rows per citing namespace, and the machine's
 * calibration. `--files N` links only the first N decision and guidance files (a slice:
 * extrapolate by documents); `--legislation` links legislation's articles too
 * (CITATOR_LINK_LEGISLATION): `--files 0 --legislation` times the legislation's part alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeOrm, createOrm } from '../src/db/orm.js';
import { createLogger } from '../src/logger.js';
import { listDocumentFiles } from '../src/modules/legal-data/corpus/corpus-reader.js';
import { createCitationGraphStore } from '../src/modules/legal-data/citator/citation-graph.store.js';
import { graphFingerprints, updateCitationGraph } from '../src/modules/legal-data/ingest/citation-graph-phase.js';
import { referenceIndexOfCorpus } from '../src/modules/legal-data/training/citation-pairs.js';
import { copyPgliteTemplate } from '../test/helpers/pglite-template.js';
import { citedByPage } from '../src/modules/legal-data/citator/citator.queries.js';
import { citedByQuerySchema } from '../src/modules/legal-data/citator/citator.schema.js';
import { percentile, printCalibration } from './lib.js';

const { values } = parseArgs({ options: { files: { type: 'string' }, legislation: { type: 'boolean', default: false } } });
const corpus = path.resolve(process.env.SHARED_CORPUS_DIR ?? '../shared/corpus');
const logger = createLogger('info');
const all = await listDocumentFiles(corpus);
const citing = all.filter((f) => ['case_law', 'doctrine'].includes(f.relativePath.split('/')[1]));
const keep = new Set(values.files ? citing.slice(0, Number(values.files)) : citing);
const files = all.filter((f) => !citing.includes(f) || keep.has(f));
const hashes = new Map(files.map((f) => [f.relativePath, `${f.relativePath}:${f.size}`]));
const fingerprints = graphFingerprints(hashes, values.legislation);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-citation-graph-'));
await copyPgliteTemplate(dataDir);
const orm = await createOrm({ databaseUrl: undefined, dataDir });
try {
  let t = Date.now();
  const index = await referenceIndexOfCorpus(files);
  const indexSeconds = (Date.now() - t) / 1000;
  const store = createCitationGraphStore(orm);
  t = Date.now();
  const outcome = await updateCitationGraph(files, async () => index, fingerprints, store, { logger, legislation: values.legislation });
  const buildSeconds = (Date.now() - t) / 1000;
  t = Date.now();
  await store.setCitationGraphState({ corpus: 'another' });
  const again = await updateCitationGraph(files, async () => index, fingerprints, store, { logger, legislation: values.legislation });
  const rerunSeconds = (Date.now() - t) / 1000;
  const [size] = (await orm.em
    .getConnection()
    .execute(
      `select sum(pg_total_relation_size(t))::bigint as bytes from unnest(array['citing_document','citation_link','unresolved_citation']) t`,
      [],
      'all',
    )) as { bytes: string }[];
  // cited-by of the most-cited document, unfiltered and with filters, as the REST door runs it
  const [top] = (await orm.em.getConnection().execute(`select cited_id, count(distinct citing_id) as n from citation_link group by cited_id order by n desc limit 1`, [], 'all')) as { cited_id: string; n: string }[];
  const queries = [{}, { sort: 'court_tier' }, { court_tier: 1, date_start: '2015-01-01' }, { country: 'DE', namespace: 'case_law', limit: 50 }, { sort: 'relevance', q: 'Kosten des Verfahrens' }];
  /** 25 rounds of `queries` on the cited document (an act with its articles under `rollUp`): the sorted times, and each query's p50. */
  const timed = async (cited: string, rollUp: boolean) => {
    const times: number[] = [];
    const perQuery: number[][] = queries.map(() => []);
    for (let round = 0; round < 25; round++) {
      for (const [i, q] of queries.entries()) {
        const started = performance.now();
        await citedByPage(orm.em.fork(), cited, rollUp, citedByQuerySchema.parse(q));
        times.push(performance.now() - started);
        perQuery[i]!.push(performance.now() - started);
      }
    }
    console.log(`  p50 per query (${queries.map((q) => JSON.stringify(q)).join(' · ')}): ${perQuery.map((t) => percentile(t.sort((a, b) => a - b), 50).toFixed(1)).join(' · ')} ms`);
    return times.sort((a, b) => a - b);
  };
  const times = await timed(top.cited_id, false);
  console.log(`cited-by of the most-cited document (${top.cited_id}, ${top.n} citing): ${times.length} queries, p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`);
  // the act whose articles are cited most, rolled up with them (include_articles), as the service asks
  const linksTo = new Map(((await orm.em.getConnection().execute(`select cited_id, count(*) as n from citation_link group by cited_id`, [], 'all')) as { cited_id: string; n: string }[]).map((r) => [r.cited_id, Number(r.n)]));
  const rolled = [...index.acts.values()]
    .map((act) => [act.doc.id, ...act.units.values(), ...[...act.nested.values()].flatMap((p) => [...p.values()])].map((d) => (typeof d === 'string' ? d : d.id)))
    .map((ids) => ({ ids, links: ids.reduce((sum, id) => sum + (linksTo.get(id) ?? 0), 0) }))
    .sort((a, b) => b.links - a.links)[0];
  if (rolled) {
    const actTimes = await timed(rolled.ids[0], true);
    console.log(`cited-by of the most-cited act with its articles (${rolled.ids[0]}, ${rolled.ids.length - 1} articles, ${rolled.links} links): p50 ${percentile(actTimes, 50).toFixed(1)} ms, p95 ${percentile(actTimes, 95).toFixed(1)} ms`);
  }
  console.log(`citing files ${keep.size}/${citing.length}; reference index ${indexSeconds.toFixed(1)} s (shared with the citation counts)`);
  console.log(`graph build ${buildSeconds.toFixed(1)} s: ${outcome?.documents} documents, ${outcome?.links} links, ${outcome?.unresolved} unresolved`);
  const perNamespace = (await orm.em.getConnection().execute(
    `select d.namespace, count(distinct d.id) as documents, count(l.citing_id) as links from citing_document d left join citation_link l on l.citing_id = d.id group by d.namespace order by d.namespace`,
    [],
    'all',
  )) as { namespace: string; documents: string; links: string }[];
  console.log(`per citing namespace: ${perNamespace.map((r) => `${r.namespace} ${r.documents} documents, ${r.links} links`).join('; ')}`);
  console.log(`re-run on the same files ${rerunSeconds.toFixed(1)} s, ${again?.relinked} relinked; storage ${(Number(size.bytes) / 2 ** 20).toFixed(1)} MiB`);
  printCalibration();
} finally {
  await closeOrm(orm);
  await rm(dataDir, { recursive: true, force: true });
}
