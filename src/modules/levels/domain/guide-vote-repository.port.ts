export abstract class GuideVoteRepository {
  /** True when this browser had not yet asked for this level's guide. */
  abstract addRequest(level: number, voterHash: string, at: Date): Promise<boolean>;
  abstract requestCount(level: number): Promise<number>;
  abstract mostRequested(limit: number): Promise<{ level: number; requests: number; lastRequestedAt: Date }[]>;
  /** One answer per browser per level: a second answer replaces the first. */
  abstract saveFeedback(level: number, voterHash: string, helpful: boolean, reason: string | undefined, at: Date): Promise<void>;
  abstract feedbackCounts(level: number): Promise<{ helpful: number; notHelpful: number }>;
}
