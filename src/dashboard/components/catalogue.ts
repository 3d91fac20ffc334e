/**
 * The catalogue's countries and sources for the pickers: `countries`, then `sources(country)` of
 * each (the catalogue has no single list of every source). Loaded once per page load and shared.
 */
import { useEffect, useState } from 'react';
import { request } from '../api/client';
import { ApiError } from '../api/errors';
import { CatalogueCountriesDocument, CatalogueSourcesDocument } from '../gql/graphql';

export interface Choice {
  value: string;
  label: string;
}

export interface Catalogue {
  countries: Choice[];
  sources: Choice[];
  /** source_id -> the source's name in the catalogue ("German Federal Court of Justice (BGH)"); absent for a partner's own choices. */
  sourceNames?: ReadonlyMap<string, string>;
}

// codes Intl does not know as regions
const EXTRA_NAMES: Record<string, string> = { CoE: 'Council of Europe', EU: 'European Union', INT: 'International' };
let regionNames: Intl.DisplayNames | null = null;

/** "Germany (DE)": the country's English name and its code (the code alone when no name is known). */
export function countryLabel(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  let name: string | undefined = EXTRA_NAMES[code];
  if (!name) {
    try {
      name = regionNames.of(code.toUpperCase());
    } catch {
      name = undefined; // not a region code
    }
  }
  return name && name !== code ? `${name} (${code})` : code;
}

let loading: Promise<Catalogue> | null = null;

async function loadCatalogue(): Promise<Catalogue> {
  const { countries } = await request(CatalogueCountriesDocument);
  const perCountry = await Promise.all(countries.map((c) => request(CatalogueSourcesDocument, { country: c.code }).then((d) => d.sources)));
  return {
    countries: countries.map((c) => ({ value: c.code, label: countryLabel(c.code) })).sort((a, b) => a.label.localeCompare(b.label)),
    sources: perCountry.flat().map((s) => ({ value: s.source_id, label: s.source_id })).sort((a, b) => a.value.localeCompare(b.value)),
    sourceNames: new Map(perCountry.flat().map((s) => [s.source_id, s.name])),
  };
}

/** A source's name as the catalogue gives it; its id while the catalogue loads or when it does not list it. */
export function sourceName(sourceId: string, catalogue: Catalogue | undefined): string {
  return catalogue?.sourceNames?.get(sourceId) || sourceId;
}

/** The catalogue (undefined while loading) and the error, if it failed. */
export function useCatalogue(): { catalogue: Catalogue | undefined; error: ApiError | null } {
  const [state, setState] = useState<{ catalogue: Catalogue | undefined; error: ApiError | null }>({ catalogue: undefined, error: null });
  useEffect(() => {
    let live = true;
    loading ??= loadCatalogue();
    loading.then(
      (catalogue) => live && setState({ catalogue, error: null }),
      (e: unknown) => {
        loading = null; // try again on the next mount
        if (live) setState({ catalogue: undefined, error: e instanceof ApiError ? e : new ApiError('server', String(e)) });
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
