import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { LEVEL_LADDER, type ProgressState } from 'src/contracts/progress';
import { fromItems, mergeProgress, toExport, toItems, type ProgressExport, type ProgressSyncInput, type ProgressSyncResult } from 'src/contracts/progress-sync';
import { LevelsService } from 'src/modules/levels';
import { AccountProgressRepository } from '../domain/account-progress-repository.port';
import { ProgressCountRepository } from '../domain/progress-count-repository.port';
import { NoGuideError, SyncRestartError, UnknownLadderError } from '../domain/progress.errors';
import { cursorRevision, syncCursor } from '../domain/sync-cursor';

/** Counts are keyed by a hash of the browser's random id, salted apart from the guide votes' hash so the two tables cannot be joined. */
const voterHash = (voterId: string) => createHash('sha256').update(`progress-voter:${voterId}`).digest('hex');

/**
 * Players' progress: a signed-in player's marks merged from every browser they use (per level the
 * later change wins, see mergeProgress), and the anonymous solved/stuck counts per level.
 */
@Injectable()
export class ProgressService {
  constructor(
    private readonly accounts: AccountProgressRepository,
    private readonly counts: ProgressCountRepository,
    private readonly levels: LevelsService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Merges a browser's entries into the account and answers the result: all of it for the full
   * merge (no `since`), else what changed after the browser's cursor and the levels it sent (so an
   * entry that lost to a newer one comes back corrected). Entries arrive as ages on the browser's
   * clock and are dated on the server's, so a browser whose clock is off still orders its changes
   * right against other devices'. Levels beyond the game's last (a lowered LEVEL_SEARCH_MAX) are
   * left out rather than refusing the whole sync. A cursor that is not this account's, or names a
   * revision it has not reached (a restored database), is SyncRestartError: the browser sends all.
   */
  async sync(userId: string, input: ProgressSyncInput, now = Date.now()): Promise<ProgressSyncResult> {
    const since = input.since === undefined ? undefined : cursorRevision(input.since, userId);
    if (since === null) throw new SyncRestartError();
    const max = this.config.public.levels.searchMax;
    const items = input.levels.filter((item) => item.level <= max);
    const incoming = fromItems(items, now);
    const stored = await this.accounts.update(userId, (current) => mergeProgress(current.levels, incoming, current.clearedAt ?? undefined));
    if (since !== undefined && since > stored.revision) throw new SyncRestartError();
    const sent = new Set(items.map((item) => item.level));
    const answered =
      since === undefined
        ? stored.levels
        : Object.fromEntries(Object.entries(stored.levels).filter(([level]) => sent.has(Number(level)) || (stored.changedIn[Number(level)] ?? 0) > since));
    return {
      levels: toItems(answered, now),
      clearedAgo: stored.clearedAt === null ? null : Math.max(0, now - stored.clearedAt),
      cursor: syncCursor(userId, stored.revision),
    };
  }

  /** The account's progress with dates, for the player's export. */
  async export(userId: string, now = Date.now()): Promise<ProgressExport> {
    return toExport((await this.accounts.read(userId)).levels, now);
  }

  clear(userId: string, now = new Date()): Promise<void> {
    return this.accounts.clear(userId, now);
  }

  /**
   * Counts a tap on "Solved it" or "Still stuck" (or taking it back) once per browser per guide,
   * and where it stopped on each ladder it names (hints revealed), once per browser per ladder.
   */
  async mark(level: number, voterId: string, state: ProgressState, ladders: Record<string, number> = {}, now = new Date()): Promise<void> {
    const guide = await this.levels.level(level);
    if (!guide) throw new NoGuideError(level);
    const hints = new Map(guide.puzzles ? guide.puzzles.map((puzzle) => [puzzle.id, puzzle.hintsHtml.length]) : [[LEVEL_LADDER, guide.hintsHtml.length]]);
    for (const [ladder, revealed] of Object.entries(ladders)) {
      const count = hints.get(ladder);
      if (count === undefined) throw new UnknownLadderError(level, ladder);
      if (revealed > count) throw new UnknownLadderError(level, ladder, count);
    }
    const hash = voterHash(voterId);
    await this.counts.record(level, hash, state, now);
    await this.counts.recordStops(level, hash, state, ladders, now);
  }
}
