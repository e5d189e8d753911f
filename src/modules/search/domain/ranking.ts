import type { RankedHit, SearchKind } from 'src/contracts/search';

/** On equal tiers, the kind listed first wins: players come for the guides. */
const KIND_ORDER: readonly SearchKind[] = ['levels', 'posts', 'pages'];

export interface RankedGroup<H extends RankedHit = RankedHit> {
  kind: SearchKind;
  total: number;
  hits: H[];
}

/** Better first: the higher tier (number, title, phrase, elsewhere), then PostgreSQL's rank. */
export const compareHits = (a: RankedHit, b: RankedHit) => b.tier - a.tier || b.rank - a.rank;

/**
 * The groups with hits, each's hits best first, the group with the best hit first. Across kinds
 * only the tier counts, then the kind: ranks of different tables are not comparable, while a
 * title or a number beats a passing mention whatever its kind.
 */
export function orderGroups<G extends RankedGroup>(groups: readonly G[]): G[] {
  return groups
    .filter((group) => group.hits.length > 0)
    .map((group) => ({ ...group, hits: [...group.hits].sort(compareHits) }))
    .sort((a, b) => b.hits[0]!.tier - a.hits[0]!.tier || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
}
