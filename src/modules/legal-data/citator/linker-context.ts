/** What the citator's linker (link-citations.ts) and its legislation part (home-act.ts) share: the document linked and the act context of a chain. */
import type { ActEntry } from '../resolver/reference-index.js';

export interface CitatorDocument {
  text: string;
  country: string;
  language: string | null;
  namespace: string;
  /** Legislation: the article's id, its own act (whose units a bare unit may name, home-act.ts) and its title. */
  own?: { id: string; act: ActEntry; title: string };
}

export type UnresolvedReason = 'act_not_in_corpus' | 'unit_not_in_corpus' | 'ambiguous' | 'foreign_act' | 'no_act';

/** The act a chain's units belong to: found in the corpus (entry), named but not found (null). */
export interface ActContext {
  entry: ActEntry | null;
  reason: UnresolvedReason;
  /** The words naming it, for the link's citation text (empty when carried). */
  words: string;
  end: number;
}
