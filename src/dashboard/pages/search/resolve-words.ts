/**
 * Why a citation resolved to nothing, in words, from what the resolver understood (`parsed`) and
 * its `match_type`. A well-formed identifier or citation that is simply not in the corpus is said
 * so plainly: "check the spelling" is only offered when nothing in the text read as a citation.
 */
import type { ResolveQuery } from '../../gql/graphql';

type Resolution = NonNullable<ResolveQuery['resolve']>;

const IDENTIFIER_NAMES: Record<string, string> = {
  ecli: 'ECLI',
  celex: 'CELEX number',
  eli: 'ELI',
  legifrance: 'Légifrance identifier',
  nor: 'NOR number',
  echr_application: 'ECHR application number',
  cjeu_case: 'CJEU case number',
  case_number: 'case number',
};

const UNIT_WORDS: Record<string, string> = { paragraph: '§', article: 'Article', section: 'Section' };

/** What the resolver understood, as a lawyer would write it ("§ 999 BGB", "case VI ZR 1/99 of the BGH"), or null. */
export function understood(p: Resolution['parsed']): string | null {
  if (p.act) {
    const unit = p.unit_number ? `${UNIT_WORDS[p.unit_type ?? ''] ?? p.unit_type ?? ''} ${p.unit_number} `.trimStart() : '';
    return `${unit}${p.act}${p.country ? ` (${p.country})` : ''}`;
  }
  if (p.case_number) return `case ${p.case_number}${p.court ? ` of the ${p.court}` : ''}`;
  return null;
}

/** One or two sentences saying why nothing was found and what to try. */
export function whyNothing(r: Resolution): { title: string; reason: string } {
  const title = `No document found for “${r.reference}”`;
  if (r.match_type === 'timeout') return { title, reason: 'The resolver ran out of time before it could decide. Try again, or choose the country to narrow it.' };
  if (r.match_type === 'error') return { title, reason: 'The resolver could not read this citation because of an error on our side. Try again later, or search for it instead.' };
  const p = r.parsed;
  if (p.identifier_kind && p.identifier) {
    const kind = IDENTIFIER_NAMES[p.identifier_kind] ?? p.identifier_kind;
    return { title, reason: `This is a well-formed ${kind} (${p.identifier}), but no document with it is in the corpus.` };
  }
  const what = understood(p);
  if (what) {
    // act_id: the act itself was found, so only the provision is missing
    const reason =
      p.act && !p.act_id
        ? `Understood as ${what}, but the act ${p.act} is not in the corpus.`
        : p.act && p.unit_number
          ? `Understood as ${what}: the act is in the corpus, but this provision of it is not.`
          : `Understood as ${what}, but no matching document is in the corpus.`;
    return { title, reason };
  }
  return { title, reason: 'This does not read as a citation the resolver knows (an act with a § or article number, an ECLI, a CELEX number, a case number). Check the spelling, or choose the country.' };
}
