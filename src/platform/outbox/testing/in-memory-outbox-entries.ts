import { OutboxEntries } from '../outbox-relay';

/** An outbox's rows in memory, for specs: their creation time; a row leaves when its job has done its work. */
export class InMemoryOutboxEntries extends OutboxEntries {
  readonly rows = new Map<string, Date>();
  waitingCalls: { before: Date; limit: number }[] = [];

  async waiting(before: Date, limit: number): Promise<string[]> {
    this.waitingCalls.push({ before, limit });
    return [...this.rows]
      .filter(([, createdAt]) => createdAt < before)
      .sort(([, a], [, b]) => a.getTime() - b.getTime())
      .slice(0, limit)
      .map(([id]) => id);
  }
}
