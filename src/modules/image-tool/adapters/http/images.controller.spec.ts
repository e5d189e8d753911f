import { randomBytes } from 'node:crypto';
import { INSUFFICIENT_CREDITS } from 'src/contracts/billing';
import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { CreditLedger, PaymentsEnabledGuard } from 'src/modules/credits';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { LiveWorkers } from 'src/platform/queue/worker-heartbeat.service';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { ImageToolService } from '../../application/image-tool.service';
import { ImageCodec } from '../../domain/image-codec.port';
import { chargeKey, jobFiles } from '../../domain/image-job';
import { ImageJobRepository } from '../../domain/image-job-repository.port';
import { ImageStore } from '../../domain/image-store.port';
import { FakeImageCodec, fakePng } from '../../testing/fake-image-codec';
import { InMemoryImageJobRepository } from '../../testing/in-memory-image-job-repository';
import { InMemoryImageStore } from '../../testing/in-memory-image-store';
import { ImagesController } from './images.controller';

/** A multipart form as a browser sends it: text fields, then files. */
function form(fields: Record<string, string>, files: { field: string; bytes: Buffer }[] = []) {
  const boundary = `----spec${randomBytes(8).toString('hex')}`;
  const parts = [
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap(({ field, bytes }) => [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`), bytes, Buffer.from('\r\n')]),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('ImagesController (in process)', () => {
  let accounts: TestAccounts;
  let ledger: InMemoryCreditLedger;
  let jobs: InMemoryImageJobRepository;
  let store: InMemoryImageStore;
  let queue: RecordingJobQueue;
  let env: Record<string, string>;
  beforeEach(() => {
    accounts = new TestAccounts();
    ledger = new InMemoryCreditLedger();
    jobs = new InMemoryImageJobRepository(ledger);
    store = new InMemoryImageStore();
    queue = new RecordingJobQueue();
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [ImagesController],
    providers: [
      ImageToolService,
      PaymentsEnabledGuard,
      LiveWorkers,
      RedisConnection,
      { provide: ImageJobRepository, useValue: jobs },
      { provide: CreditLedger, useValue: ledger },
      { provide: ImageStore, useValue: store },
      { provide: ImageCodec, useValue: new FakeImageCodec() },
      { provide: JobQueue, useValue: queue },
      ...accounts.providers(),
    ],
    config: testConfig(env),
  }));

  async function player(credits = 5) {
    const session = await accounts.signIn();
    if (credits) await ledger.grant({ userId: session.userId, source: 'admin', sourceRef: `test:${session.userId}`, credits, validityDays: 30, description: 'Test credits' });
    return session;
  }
  const upload = (headers: Record<string, string>, fields: Record<string, string>, files: { field: string; bytes: Buffer }[]) => {
    const body = form(fields, files);
    return api.inject({ method: 'POST', url: '/api/v1/images', headers: { ...headers, ...body.headers }, payload: body.payload });
  };

  it('takes an upload for one credit (202), holds it and queues the job; the same image again answers the earlier job (200)', async () => {
    const { userId, headers } = await player();
    const accepted = await upload(headers, { conversion: 'sketch', format: 'webp' }, [{ field: 'file', bytes: fakePng(640, 480) }]);
    expect(accepted.statusCode).toBe(202);
    const job = accepted.json();
    expect(job).toMatchObject({ conversion: 'sketch', source: 'upload', status: 'queued', credits: 1, options: { format: 'webp' } });
    expect(await ledger.balance(userId)).toBe(4);
    expect(ledger.charges.map((c) => [c.idempotencyKey, c.state])).toEqual([[chargeKey(job.id), 'held']]);
    expect(queue.dataOf('image.convert')).toEqual([{ jobId: job.id }]);
    const again = await upload(headers, { conversion: 'sketch', format: 'webp' }, [{ field: 'file', bytes: fakePng(640, 480) }]);
    expect([again.statusCode, again.json().id]).toEqual([200, job.id]);
    expect(await ledger.balance(userId)).toBe(4);
  });

  it('takes an image URL as JSON, and refuses a URL that is not http(s) with the spec hint', async () => {
    const { headers } = await player();
    const accepted = await api.inject({ method: 'POST', url: '/api/v1/images', headers, payload: { conversion: 'cartoon', url: 'https://images.example/cat.png' } });
    expect([accepted.statusCode, accepted.json().source]).toEqual([202, 'url']);
    const refused = await api.inject({ method: 'POST', url: '/api/v1/images', headers, payload: { conversion: 'cartoon', url: 'file:///etc/passwd' } });
    expect([refused.statusCode, errorOf(refused)]).toEqual([400, { code: 'REQUEST.INVALID', errors: ['url: Please enter a valid image URL'] }]);
  });

  it("answers 402 with the balance when the credits are short, keeping no job and no file", async () => {
    const { headers } = await player(0);
    const refused = await upload(headers, { conversion: 'sketch' }, [{ field: 'file', bytes: fakePng() }]);
    expect([refused.statusCode, refused.json()]).toEqual([402, { code: INSUFFICIENT_CREDITS, errors: ["You don't have enough credits"], balance: 0, has_paid: false }]);
    expect([jobs.rows.length, store.files.size, queue.queued.length]).toEqual([0, 0, 0]);
  });

  it('refuses a form out of shape, a file that is no image, and a body of another type, holding nothing', async () => {
    const { userId, headers } = await player();
    const cases: [Record<string, string>, { field: string; bytes: Buffer }[], number, string, string][] = [
      [{ conversion: 'sketch' }, [], 400, 'REQUEST.INVALID', 'Choose an image to upload.'],
      [{ conversion: 'sketch', colour: 'red' }, [{ field: 'file', bytes: fakePng() }], 400, 'REQUEST.INVALID', 'Unknown field "colour": the form takes conversion, scale, width, noise, format, quality and file.'],
      [{ conversion: 'sketch' }, [{ field: 'image', bytes: fakePng() }], 400, 'REQUEST.INVALID', 'Send one image in the field "file".'],
      [{ conversion: 'sketch', scale: '2' }, [{ field: 'file', bytes: fakePng() }], 400, 'REQUEST.INVALID', 'scale: scale is for the AI conversions only.'],
      [{ conversion: 'sketch' }, [{ field: 'file', bytes: Buffer.from('<svg/>') }], 400, 'IMAGES.INVALID_IMAGE', 'Please upload a JPEG, PNG, WebP or GIF image'],
    ];
    for (const [fields, files, status, code, message] of cases) {
      const refused = await upload(headers, fields, files);
      expect([refused.statusCode, errorOf(refused).code, errorOf(refused).errors[0]]).toEqual([status, code, message]);
    }
    const urlencoded = await api.inject({ method: 'POST', url: '/api/v1/images', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'conversion=sketch' });
    expect([urlencoded.statusCode, errorOf(urlencoded).code]).toEqual([415, 'REQUEST.UNSUPPORTED_BODY']);
    expect(await ledger.balance(userId)).toBe(5);
  });

  it('refuses a file over 10 MB with 413 while it streams in', async () => {
    const { userId, headers } = await player();
    const refused = await upload(headers, { conversion: 'sketch' }, [{ field: 'file', bytes: Buffer.concat([fakePng(), Buffer.alloc(10 * 1024 * 1024)]) }]);
    expect([refused.statusCode, errorOf(refused).code]).toEqual([413, 'HTTP.413']);
    expect(await ledger.balance(userId)).toBe(5);
  });

  it("shows users their own jobs and a succeeded job's files, to download or inline, never sniffed", async () => {
    const { headers } = await player();
    const { id } = (await upload(headers, { conversion: 'sketch' }, [{ field: 'file', bytes: fakePng() }])).json();
    expect((await api.inject({ method: 'GET', url: '/api/v1/images', headers })).json()).toMatchObject({ total: 1, items: [{ id }] });
    const notYet = await api.inject({ method: 'GET', url: `/api/v1/images/${id}/result`, headers });
    expect([notYet.statusCode, errorOf(notYet).code]).toEqual([404, 'IMAGES.NOT_FOUND']);
    Object.assign(jobs.rows.find((j) => j.id === id)!, { status: 'succeeded', resultFormat: 'png', resultWidth: 128, resultHeight: 96, finishedAt: new Date() });
    await store.put(jobFiles(id).result, Buffer.from('the result'), 'image/png');
    const file = await api.inject({ method: 'GET', url: `/api/v1/images/${id}/result?download=1`, headers });
    expect([file.statusCode, file.body, file.headers['content-type'], file.headers['x-content-type-options'], file.headers['content-disposition']]).toEqual([
      200,
      'the result',
      'image/png',
      'nosniff',
      `attachment; filename="sketch-${id.slice(0, 8)}.png"`,
    ]);
    expect((await api.inject({ method: 'GET', url: `/api/v1/images/${id}/result`, headers })).headers['content-disposition']).toBe(`inline; filename="sketch-${id.slice(0, 8)}.png"`);
    const other = await accounts.signIn('other@example.com');
    for (const url of [`/api/v1/images/${id}`, `/api/v1/images/${id}/result`]) {
      const refused = await api.inject({ method: 'GET', url, headers: other.headers });
      expect([url, refused.statusCode, errorOf(refused).code]).toEqual([url, 404, 'IMAGES.NOT_FOUND']);
    }
    const badFile = await api.inject({ method: 'GET', url: `/api/v1/images/${id}/original`, headers });
    expect([badFile.statusCode, errorOf(badFile).errors]).toEqual([400, ['The file is preview, result or thumbnail.']]);
  });

  it('wants a session for every route', async () => {
    for (const url of ['/api/v1/images', '/api/v1/images/0b9b7f2e-1c1a-4c1e-9d1e-2f3a4b5c6d7e']) {
      const anonymous = await api.inject({ method: 'GET', url });
      expect([url, anonymous.statusCode, errorOf(anonymous).code]).toEqual([url, 401, 'AUTH.SIGN_IN_REQUIRED']);
    }
  });

  it('answers 404 on every image route while payments are off', async () => {
    env = { HAS_PAYMENT: 'false' };
    const { headers } = await accounts.signIn();
    const refused = await api.inject({ method: 'GET', url: '/api/v1/images', headers });
    expect([refused.statusCode, errorOf(refused).code]).toEqual([404, 'PAYMENTS.DISABLED']);
  });
});
