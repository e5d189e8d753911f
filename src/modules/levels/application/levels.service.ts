import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  formatGuideRanges,
  helpfulShare,
  LEVELS_PAGE_SIZE,
  MOST_REQUESTED_SHOWN,
  type GuideFeedback,
  type GuideRanges,
  type LevelDetail,
  type LevelListData,
  type LevelListQuery,
  type LevelPageData,
  type LevelSummary,
} from 'src/contracts/levels';
import { SEARCH_LIMITS, type SearchTerms } from 'src/contracts/search';
import type { Level } from '../domain/level';
import { GuideVoteRepository } from '../domain/guide-vote-repository.port';
import { LevelRepository } from '../domain/level-repository.port';
import { GuideExistsError, NoGuideError } from '../domain/levels.errors';

/** Levels shown on the home page and linked from the footer, when they have guides. */
const FEATURED = [1, 27, 33, 60, 136, 233];

/** Votes are keyed by a hash of the browser's random id, never the id itself. */
const voterHash = (voterId: string) => createHash('sha256').update(`guide-voter:${voterId}`).digest('hex');

/** `{ helpful }` from HELPFUL_SHARE_MIN_VOTES answers on, else nothing. */
function helpful(counts: { helpful: number; notHelpful: number }): Pick<LevelDetail, 'helpful'> {
  const share = helpfulShare(counts.helpful, counts.helpful + counts.notHelpful);
  return share ? { helpful: share } : {};
}

function toDetail(level: Level): LevelDetail {
  return {
    number: level.number,
    title: level.title,
    difficulty: level.difficulty,
    referenceSeconds: level.referenceSeconds,
    ...(level.unlocksAt != null ? { unlocksAt: level.unlocksAt } : {}),
    introHtml: level.introHtml,
    tipsHtml: level.tips,
    hintsHtml: level.hints,
    steps: level.steps,
    ...(level.puzzles ? { puzzles: level.puzzles } : {}),
    ...(level.video ? { video: level.video } : {}),
    gameVersion: level.gameVersion,
    verifiedOn: level.verifiedOn,
    updatedAt: level.updatedAt.toISOString(),
  };
}

/** The read side of the level guides, and the two votes a visitor can cast on them. */
@Injectable()
export class LevelsService {
  constructor(
    private readonly levels: LevelRepository,
    private readonly votes: GuideVoteRepository,
  ) {}

  /** A published guide, or null (also the check other modules make that a guide exists). */
  async level(number: number): Promise<LevelDetail | null> {
    const level = await this.levels.findPublished(number);
    return level ? toDetail(level) : null;
  }

  /** A published guide with its helpful share once it has enough answers (the API's level detail); NoGuideError without one. */
  async guide(number: number): Promise<LevelDetail> {
    const { level, feedback } = await this.levels.findPage(number);
    if (!level) throw new NoGuideError(number);
    return { ...toDetail(level), ...helpful(feedback) };
  }

  /**
   * The guide of an in-range level, or the not-covered state with the nearest covered levels. The
   * helpful share is part of the page, so cached pages show it as it was when they were rendered:
   * a new answer shows within PAGE_CACHE_TTL_SECONDS (and at the next content import).
   */
  async levelPage(number: number): Promise<LevelPageData> {
    const { level, prev, next, feedback } = await this.levels.findPage(number);
    return level ? { kind: 'guide', level: { ...toDetail(level), ...helpful(feedback) }, prev, next } : { kind: 'not-covered', number, prev, next };
  }

  /** The list page: one round trip for the page of guides, the total and the difficulty filter's counts. */
  async list(query: LevelListQuery): Promise<LevelListData> {
    const { levels, total, counts } = await this.levels.list(query, LEVELS_PAGE_SIZE);
    return { query, levels, total, page: query.page, pageCount: Math.max(1, Math.ceil(total / LEVELS_PAGE_SIZE)), counts };
  }

  /** The guides of one search (the search module ranks them with the posts and pages). */
  search(terms: SearchTerms) {
    return this.levels.search(terms, SEARCH_LIMITS.levels);
  }

  featured(): Promise<LevelSummary[]> {
    return this.levels.featured(FEATURED);
  }

  /** The levels with a guide, for "Continue at level N" (the next one with a guide, as the guide's "On to level N"). */
  async guideRanges(): Promise<GuideRanges> {
    return formatGuideRanges(await this.levels.publishedRuns());
  }

  /** The home page's levels: the featured guides and the guide ranges, in one round trip. */
  async home(): Promise<{ featured: LevelSummary[]; guides: GuideRanges }> {
    const { featured, runs } = await this.levels.featuredAndRuns(FEATURED);
    return { featured, guides: formatGuideRanges(runs) };
  }

  /** /levels/hardest: the first page's worth of hard guides, longest to solve first, and how many hard guides there are. */
  hardest(): Promise<{ levels: LevelSummary[]; total: number }> {
    return this.levels.hardest(LEVELS_PAGE_SIZE);
  }

  /** Published guides for the sitemap: number, title, last change and video. */
  async sitemapEntries() {
    return this.levels.sitemapEntries();
  }

  /** The most recently changed guides, newest first: the levels feed. */
  recentlyUpdated(limit: number) {
    return this.levels.recentlyUpdated(limit);
  }

  /** Counts one request per browser for a level without a guide (GuideExistsError with one); answers the total so the page can show it. */
  async requestGuide(number: number, voterId: string, now = new Date()): Promise<{ counted: boolean; requests: number }> {
    if (await this.levels.findPublished(number)) throw new GuideExistsError(number);
    const counted = await this.votes.addRequest(number, voterHash(voterId), now);
    return { counted, requests: await this.votes.requestCount(number) };
  }

  /** "Was this helpful?" on a published guide (NoGuideError without one): one answer per browser, the latest. */
  async recordFeedback(number: number, voterId: string, feedback: GuideFeedback, now = new Date()): Promise<void> {
    if (!(await this.levels.findPublished(number))) throw new NoGuideError(number);
    await this.votes.saveFeedback(number, voterHash(voterId), feedback.helpful, feedback.helpful ? undefined : feedback.reason, now);
  }

  /** The most requested levels without a guide: `npm run content:wanted` and /admin/guides both list these. */
  mostRequested(limit = MOST_REQUESTED_SHOWN) {
    return this.votes.mostRequested(limit);
  }
}
