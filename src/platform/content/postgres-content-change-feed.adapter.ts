import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { OutageLog } from 'src/platform/logging/outage-log';
import { ContentChangeFeed } from './content-change-feed.port';

const CHANNEL = 'content_changed';
/** After a lost connection, listen again this soon. */
const RECONNECT_MS = 1_000;

/**
 * LISTEN/NOTIFY on the shared PostgreSQL: a publish is a NOTIFY, which every listening process
 * receives within milliseconds. A process listens only once something subscribes (web processes,
 * for their page cache), on a connection of its own outside the pool. While that connection is
 * lost, notifications are missed, so listening again tells the subscribers once (kind '*').
 */
@Injectable()
export class PostgresContentChangeFeed extends ContentChangeFeed implements OnApplicationShutdown {
  private readonly logger = new Logger('ContentChanges');
  private readonly outage = new OutageLog(this.logger, 'PostgreSQL (content change notifications)');
  private readonly listeners: ((kind: string) => void)[] = [];
  private client?: Client;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private listening = false;
  private missed = false;

  constructor(
    private readonly url: string,
    private readonly em: EntityManager,
  ) {
    super();
  }

  async publish(kind: string): Promise<void> {
    await this.em.fork().execute(`select pg_notify('${CHANNEL}', ?)`, [kind]);
  }

  subscribe(listener: (kind: string) => void): void {
    this.listeners.push(listener);
    if (this.listeners.length === 1) void this.listen();
  }

  private tell(kind: string): void {
    for (const listener of this.listeners) listener(kind);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    client.on('notification', (message) => {
      if (message.channel === CHANNEL) this.tell(message.payload ?? '*');
    });
    client.on('error', (error) => this.lost(client, error.message));
    client.on('end', () => this.lost(client, 'connection closed'));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listening = true;
      this.outage.recovered();
      if (this.missed) {
        this.missed = false;
        this.tell('*');
      }
    } catch (error) {
      this.lost(client, (error as Error).message);
    }
  }

  private lost(client: Client, detail: string): void {
    if (this.stopped || client !== this.client) return;
    this.client = undefined;
    if (this.listening) this.missed = true;
    this.listening = false;
    this.outage.failed(detail);
    void client.end().catch(() => undefined);
    this.timer = setTimeout(() => void this.listen(), RECONNECT_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => undefined);
  }
}
