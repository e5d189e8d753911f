import type { Difficulty, LevelListQuery, LevelSummary } from 'src/contracts/levels';
import { MARK_END, MARK_START, type RankedHits, type SearchTerms } from 'src/contracts/search';
import { Level, type LevelGuide } from '../domain/level';
import type { GuideVoteRepository } from '../domain/guide-vote-repository.port';
import { LevelRepository, type ImportSummary, type LevelListPage, type LevelPage, type LevelPageRow } from '../domain/level-repository.port';

/** A published guide for specs: level `number`, medium, with the fields a content file fills. */
export function aLevel(number: number, overrides: Partial<Level> = {}): Level {
  return Object.assign(new Level(), {
    number,
    title: `Level ${number} room`,
    difficulty: 'medium' as Difficulty,
    referenceSeconds: 120,
    introHtml: '<p>Look around the room.</p>',
    tips: ['Look up.'],
    hints: ['The key is under the rug.'],
    steps: [{ html: '<p>Lift the rug and take the key.</p>' }],
    gameVersion: '1.0',
    verifiedOn: '2026-01-01',
    searchText: `level ${number} room look around the room lift the rug and take the key`,
    sourceHash: `hash-${number}`,
    published: true,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  });
}

const summary = (level: Level): LevelSummary => ({ number: level.number, title: level.title, difficulty: level.difficulty, referenceSeconds: level.referenceSeconds });

/**
 * Level guides in memory, for specs: the published set, its lists and neighbours as the SQL
 * answers them (by number), a plain word search (every word, or any, in the title or text) and the
 * import's diff by content hash. test/levels.int-spec.ts proves the SQL and its full-text search.
 * A level page's helpfulness answers come from `votes` when given (the SQL reads the votes table).
 */
export class InMemoryLevelRepository extends LevelRepository {
  readonly rows = new Map<number, Level>();

  constructor(
    levels: Level[] = [],
    private readonly votes?: Pick<GuideVoteRepository, 'feedbackCounts'>,
  ) {
    super();
    for (const level of levels) this.rows.set(level.number, level);
  }

  private published(): Level[] {
    return [...this.rows.values()].filter((l) => l.published).sort((a, b) => a.number - b.number);
  }

  private matching(text?: string): Level[] {
    const words = text?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
    return this.published().filter((l) => words.every((w) => `${l.title} ${l.searchText}`.toLowerCase().includes(w)));
  }

  async findPublished(number: number) {
    const level = this.rows.get(number);
    return level?.published ? { ...level } : null;
  }

  async findPage(number: number): Promise<LevelPageRow> {
    const all = this.published();
    const prev = all.filter((l) => l.number < number).at(-1);
    const next = all.find((l) => l.number > number);
    const feedback = (await this.votes?.feedbackCounts(number)) ?? { helpful: 0, notHelpful: 0 };
    return { level: await this.findPublished(number), ...(prev ? { prev: summary(prev) } : {}), ...(next ? { next: summary(next) } : {}), feedback };
  }

  async list(query: LevelListQuery, pageSize: number): Promise<LevelListPage> {
    const matching = this.matching(query.query);
    const found = matching.filter((l) => !query.difficulty || l.difficulty === query.difficulty);
    const count = (d: Difficulty) => matching.filter((l) => l.difficulty === d).length;
    return {
      levels: found.slice((query.page - 1) * pageSize, query.page * pageSize).map(summary),
      total: found.length,
      counts: { easy: count('easy'), medium: count('medium'), hard: count('hard'), all: matching.length },
    };
  }

  async hardest(limit: number): Promise<LevelPage> {
    const hard = this.published()
      .filter((l) => l.difficulty === 'hard')
      .sort((a, b) => b.referenceSeconds - a.referenceSeconds || a.number - b.number);
    return { levels: hard.slice(0, limit).map(summary), total: hard.length };
  }

  async sitemapEntries() {
    return this.published().map((l) => ({ number: l.number, title: l.title, updatedAt: l.updatedAt, ...(l.video ? { video: l.video } : {}) }));
  }

  async recentlyUpdated(limit: number) {
    return this.published()
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || a.number - b.number)
      .slice(0, limit)
      .map((l) => ({ number: l.number, title: l.title, updatedAt: l.updatedAt }));
  }

  async featured(numbers: number[]) {
    return this.published()
      .filter((l) => numbers.includes(l.number))
      .map(summary);
  }

  async publishedRuns(): Promise<[number, number][]> {
    const runs: [number, number][] = [];
    for (const { number } of this.published()) {
      const last = runs.at(-1);
      if (last && last[1] === number - 1) last[1] = number;
      else runs.push([number, number]);
    }
    return runs;
  }

  async featuredAndRuns(numbers: number[]) {
    return { featured: await this.featured(numbers), runs: await this.publishedRuns() };
  }

  async search(terms: SearchTerms, limit: number): Promise<RankedHits<{ number: number; difficulty: Difficulty }>> {
    const mark = (text: string) => terms.words.reduce((out, w) => out.replace(new RegExp(`\\b(${w})`, 'gi'), `${MARK_START}$1${MARK_END}`), text);
    const hits = this.published()
      .map((l) => {
        const text = `${l.title} ${l.searchText}`.toLowerCase();
        const has = terms.words.filter((w) => text.includes(w));
        const named = terms.number === l.number;
        const found = named || (terms.words.length > 0 && (terms.match === 'all' ? has.length === terms.words.length : has.length > 0));
        if (!found) return null;
        const inTitle = terms.words.length > 0 && terms.words.every((w) => l.title.toLowerCase().includes(w));
        const tier = named ? 3 : inTitle ? 2 : text.includes(terms.words.join(' ')) ? 1 : 0;
        return { number: l.number, difficulty: l.difficulty, tier, rank: has.length / Math.max(1, terms.words.length), title: mark(l.title), snippet: mark(l.searchText.slice(0, 160)) };
      })
      .filter((hit) => hit !== null)
      .sort((a, b) => b.tier - a.tier || b.rank - a.rank || a.number - b.number);
    return { total: hits.length, hits: hits.slice(0, limit) };
  }

  async replaceAll(guides: LevelGuide[], _contentHash: string, now: Date): Promise<ImportSummary> {
    const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, unpublished: 0 };
    const numbers = new Set(guides.map((g) => g.number));
    for (const guide of guides) {
      const row = this.rows.get(guide.number);
      if (!row) summary.created++;
      else if (row.sourceHash !== guide.sourceHash || !row.published) summary.updated++;
      else {
        summary.unchanged++;
        continue;
      }
      this.rows.set(guide.number, Object.assign(new Level(), guide, { published: true, createdAt: row?.createdAt ?? now, updatedAt: now }));
    }
    for (const row of this.rows.values()) {
      if (row.published && !numbers.has(row.number)) {
        row.published = false;
        summary.unpublished++;
      }
    }
    return summary;
  }
}
