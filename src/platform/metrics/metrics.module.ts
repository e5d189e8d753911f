import { Module } from '@nestjs/common';
import { QueueModule } from 'src/platform/queue/queue.module';
import { WorkerMetricsListener } from './metrics-http.adapter';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics: MetricsService holds the registry and the instruments. It reads the queues
 * and the database pool when scraped, and times every job attempt, so it imports the queue. The
 * web process serves it at /metrics (registerMetricsHttp, from the app factory).
 */
@Module({
  imports: [QueueModule],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}

/** The worker's metrics listener (WORKER_METRICS_PORT); the worker has no HTTP server otherwise. */
@Module({
  imports: [MetricsModule],
  providers: [WorkerMetricsListener],
})
export class WorkerMetricsModule {}
