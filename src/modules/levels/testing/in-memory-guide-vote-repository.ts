import { GuideVoteRepository } from '../domain/guide-vote-repository.port';

/** "Request this guide" and "Was this helpful?" in memory, for specs: one request and one answer per browser per level. */
export class InMemoryGuideVoteRepository extends GuideVoteRepository {
  readonly requests = new Map<number, Map<string, Date>>();
  readonly feedback = new Map<number, Map<string, { helpful: boolean; reason?: string; at: Date }>>();

  async addRequest(level: number, voterHash: string, at: Date): Promise<boolean> {
    const voters = this.requests.get(level) ?? new Map<string, Date>();
    this.requests.set(level, voters);
    if (voters.has(voterHash)) return false;
    voters.set(voterHash, at);
    return true;
  }

  async requestCount(level: number): Promise<number> {
    return this.requests.get(level)?.size ?? 0;
  }

  async mostRequested(limit: number) {
    return [...this.requests.entries()]
      .map(([level, voters]) => ({ level, requests: voters.size, lastRequestedAt: new Date(Math.max(...[...voters.values()].map((d) => d.getTime()))) }))
      .sort((a, b) => b.requests - a.requests || b.lastRequestedAt.getTime() - a.lastRequestedAt.getTime())
      .slice(0, limit);
  }

  async saveFeedback(level: number, voterHash: string, helpful: boolean, reason: string | undefined, at: Date): Promise<void> {
    const answers = this.feedback.get(level) ?? new Map();
    this.feedback.set(level, answers);
    answers.set(voterHash, { helpful, ...(reason ? { reason } : {}), at });
  }

  async feedbackCounts(level: number) {
    const answers = [...(this.feedback.get(level)?.values() ?? [])];
    return { helpful: answers.filter((a) => a.helpful).length, notHelpful: answers.filter((a) => !a.helpful).length };
  }
}
