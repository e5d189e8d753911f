import { CreditLedger, PaymentsEnabledGuard } from 'src/modules/credits';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { LiveWorkers } from 'src/platform/queue/worker-heartbeat.service';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { ImageToolService } from '../../application/image-tool.service';
import { ImageCodec } from '../../domain/image-codec.port';
import { ImageJobRepository } from '../../domain/image-job-repository.port';
import { ImageStore } from '../../domain/image-store.port';
import { FakeImageCodec } from '../../testing/fake-image-codec';
import { InMemoryImageJobRepository } from '../../testing/in-memory-image-job-repository';
import { InMemoryImageStore } from '../../testing/in-memory-image-store';
import { ImageEstimateController } from './image-estimate.controller';

describe('ImageEstimateController (in process)', () => {
  let env: Record<string, string>;
  beforeEach(() => {
    env = {};
  });
  const api = useControllers(() => {
    const ledger = new InMemoryCreditLedger();
    return {
      controllers: [ImageEstimateController],
      providers: [
        ImageToolService,
        PaymentsEnabledGuard,
        LiveWorkers,
        RedisConnection,
        { provide: ImageJobRepository, useValue: new InMemoryImageJobRepository(ledger) },
        { provide: CreditLedger, useValue: ledger },
        { provide: ImageStore, useValue: new InMemoryImageStore() },
        { provide: ImageCodec, useValue: new FakeImageCodec() },
        { provide: JobQueue, useValue: new RecordingJobQueue() },
      ],
      config: testConfig(env),
    };
  });

  const estimate = (query: string) => api.inject({ method: 'GET', url: `/api/v1/images/estimate?${query}` });

  it('estimates a conversion for anyone, before signing in: the exact result size and the seconds, never cached', async () => {
    const response = await estimate('conversion=ai-2x&width=4032&height=3024');
    expect([response.statusCode, response.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(response.json()).toMatchObject({ result: { width: 4096, height: 3072 }, queue: { ahead: 0 }, seconds: { low: expect.any(Number), typical: expect.any(Number), high: expect.any(Number) } });
    expect((await estimate('conversion=ai-2x&width=1000&height=500&width_out=1500')).json().result).toEqual({ width: 1500, height: 750 });
  });

  it("refuses a size or option out of range, and options the conversion does not take, with the field's reason", async () => {
    const cases: [string, string][] = [
      ['conversion=ai-2x&width=0&height=10', 'width: width is at least 1 px'],
      ['conversion=ai-2x&width=10&height=1.5', 'height: height is a whole number of pixels'],
      ['conversion=ai-2x&width=10', 'height: height is a whole number of pixels'],
      ['conversion=ai-2x&width=ten&height=10', 'width: width is a whole number of pixels'],
      ['conversion=ai-2x&width=10&height=10&scale=2&width_out=20', 'width_out: Give a scale or a width_out, not both.'],
      ['conversion=sketch&width=10&height=10&scale=2', 'scale: scale is for the AI conversions only.'],
      ['conversion=paint&width=10&height=10', 'conversion: conversion is one of ai-2x, ai-2x-fast, ai-4x, sketch, cartoon, enhance'],
    ];
    for (const [query, reason] of cases) {
      const refused = await estimate(query);
      expect([query, refused.statusCode, errorOf(refused)]).toEqual([query, 400, { code: 'REQUEST.INVALID', errors: [reason] }]);
    }
  });

  it('answers 404 while payments are off', async () => {
    env = { HAS_PAYMENT: 'false' };
    const refused = await estimate('conversion=ai-2x&width=10&height=10');
    expect([refused.statusCode, errorOf(refused).code]).toEqual([404, 'PAYMENTS.DISABLED']);
  });
});
