import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { GuideReport } from '../../domain/guide-report';
import { GuideReportRepository } from '../../domain/guide-report-repository.port';
import { GuideReportSchema } from './guide-report.entity';

/** Guide reports through MikroORM; a fork per call, as jobs and schedules run outside any request. */
@Injectable()
export class MikroOrmGuideReportRepository extends GuideReportRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(report: GuideReport): Promise<void> {
    await this.em.fork().insert(GuideReportSchema, report);
  }

  findById(id: string): Promise<GuideReport | null> {
    return this.em.fork().findOne(GuideReportSchema, { id });
  }

  async markNotified(id: string, at: Date): Promise<boolean> {
    return (await this.em.fork().nativeUpdate(GuideReportSchema, { id, notifiedAt: null }, { notifiedAt: at })) > 0;
  }

  deleteCreatedBefore(cutoff: Date): Promise<number> {
    return this.em.fork().nativeDelete(GuideReportSchema, { createdAt: { $lt: cutoff } });
  }
}
