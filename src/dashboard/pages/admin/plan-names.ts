/** Plan names for the administration pages: the catalogue's own (the `plans` query), a slug in words until they arrive. */
import { useCallback } from 'react';
import { useQuery } from '../../app/hooks';
import { AdminPlanNamesDocument } from '../../gql/graphql';

/** "professional_plus" → "Professional Plus" (the fallback while the catalogue loads, or for a plan it no longer lists). */
export function slugWords(slug: string): string {
  return slug
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** A function from a plan slug to its name. */
export function usePlanNames(): (slug: string) => string {
  const plans = useQuery(AdminPlanNamesDocument);
  const list = plans.data?.plans.plans;
  return useCallback((slug: string) => list?.find((p) => p.slug === slug)?.name ?? slugWords(slug), [list]);
}
