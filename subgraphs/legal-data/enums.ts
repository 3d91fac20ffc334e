/**
 * The closed sets of the legal-data arguments as GraphQL enums (issue #35, item 7), from the same
 * constants the REST schemas validate against, so the two cannot drift.
 */
import { closedSetEnum } from '../../src/graphql/closed-set-enum.js';
import { NAMESPACES } from '../../src/domain/legal-document.js';
import { RESULT_DETAILS } from '../../src/modules/legal-data/search.schema.js';
import { RESOLVE_HINT_TYPES } from '../../src/modules/legal-data/resolve.schema.js';

export const Namespace = closedSetEnum('Namespace', NAMESPACES, 'A collection of the corpus: case_law, legislation or doctrine.');
export const ResultDetail = closedSetEnum('ResultDetail', RESULT_DETAILS, 'How much of each hit a search returns.');
export const ResolveHintType = closedSetEnum('ResolveHintType', RESOLVE_HINT_TYPES, 'The kind of document a reference names.');
