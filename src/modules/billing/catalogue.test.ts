import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PLANS } from '../usage/plans.js';
import { Catalogue, loadCatalogueFile, PURCHASABLE_PLANS } from './catalogue.js';

describe('billing catalogue', () => {
  it('loads the bundled file: limits from the limits table, prices and price ids from the file', () => {
    const catalogue = new Catalogue(loadCatalogueFile(), true);
    expect(catalogue.plans().map((p) => p.slug)).toEqual([...PURCHASABLE_PLANS]);
    expect(catalogue.plan('developer_scale').limits).toEqual({ per_minute: PLANS.developer_scale.perMinute, per_day: null, per_period: PLANS.developer_scale.perPeriod });
    expect(catalogue.planOfPrice('price_professional_plus_yearly')).toEqual({ plan: 'professional_plus', interval: 'yearly' });
    expect(catalogue.planOfPrice('price_unknown')).toBeNull();
    expect(new Catalogue(loadCatalogueFile(), false).plan('professional')).not.toHaveProperty('price_ids');
  });

  it('refuses a catalogue file with every problem listed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'catalogue-'));
    const bad = JSON.parse(await readFile(path.join(process.cwd(), 'billing-catalogue.json'), 'utf8'));
    delete bad.plans.developer_pro;
    bad.audiences.developer.recommended = 'enterprise';
    await writeFile(path.join(dir, 'bad.json'), JSON.stringify(bad));
    expect(() => loadCatalogueFile(path.join(dir, 'bad.json'))).toThrow(/plans\.developer_pro[\s\S]*audiences\.developer\.recommended/);
  });
});
