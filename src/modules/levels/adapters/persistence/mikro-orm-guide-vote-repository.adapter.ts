import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { GuideVoteRepository } from '../../domain/guide-vote-repository.port';

@Injectable()
export class MikroOrmGuideVoteRepository extends GuideVoteRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async addRequest(level: number, voterHash: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ level_number: number }[]>(
      `insert into guide_requests (level_number, voter_hash, created_at) values (?, ?, ?)
       on conflict do nothing returning level_number`,
      [level, voterHash, at],
    );
    return rows.length === 1;
  }

  async requestCount(level: number): Promise<number> {
    const [row] = await this.em.execute<{ n: string }[]>('select count(*) as n from guide_requests where level_number = ?', [level]);
    return Number(row?.n ?? 0);
  }

  async mostRequested(limit: number) {
    const rows = await this.em.execute<{ level_number: number; n: string; last: Date }[]>(
      `select level_number, count(*) as n, max(created_at) as last from guide_requests
       where level_number not in (select number from levels where published)
       group by level_number order by count(*) desc, level_number limit ?`,
      [limit],
    );
    return rows.map((r) => ({ level: r.level_number, requests: Number(r.n), lastRequestedAt: new Date(r.last) }));
  }

  async saveFeedback(level: number, voterHash: string, helpful: boolean, reason: string | undefined, at: Date): Promise<void> {
    await this.em.execute(
      `insert into guide_feedback (level_number, voter_hash, helpful, reason, created_at, updated_at) values (?, ?, ?, ?, ?, ?)
       on conflict (level_number, voter_hash) do update set helpful = excluded.helpful, reason = excluded.reason, updated_at = excluded.updated_at`,
      [level, voterHash, helpful, reason ?? null, at, at],
    );
  }

  async feedbackCounts(level: number) {
    const [row] = await this.em.execute<{ yes: string; no: string }[]>(
      `select count(*) filter (where helpful) as yes, count(*) filter (where not helpful) as no from guide_feedback where level_number = ?`,
      [level],
    );
    return { helpful: Number(row?.yes ?? 0), notHelpful: Number(row?.no ?? 0) };
  }
}
