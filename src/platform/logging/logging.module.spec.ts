import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
import { loadConfig } from 'src/config/app-config';
import { chooseLogFormat, requestLogLevel, requestLogOptions } from './logging.module';

describe('chooseLogFormat', () => {
  it('is pretty only for a person at a development terminal, JSON for everything else', () => {
    expect(chooseLogFormat(undefined, 'development', true)).toBe('pretty');
    expect(chooseLogFormat(undefined, 'development', false)).toBe('json'); // piped to a file or a collector
    expect(chooseLogFormat(undefined, 'production', true)).toBe('json');
    expect(chooseLogFormat(undefined, 'test', true)).toBe('json');
  });

  it('follows LOG_FORMAT when it is set', () => {
    expect(chooseLogFormat('json', 'development', true)).toBe('json');
    expect(chooseLogFormat('pretty', 'production', false)).toBe('pretty');
  });
});

describe('requestLogLevel', () => {
  const level = (method: string, url: string, statusCode: number, error?: Error) =>
    requestLogLevel({ method, url } as IncomingMessage, { statusCode } as ServerResponse, error);

  it('keeps page views (counted by the metrics) out of the info log', () => {
    expect(level('GET', '/levels/27', 200)).toBe('debug');
    expect(level('GET', '/levels/27/_payload.json', 304)).toBe('debug');
    expect(level('HEAD', '/', 200)).toBe('debug');
    expect(level('GET', '/auth/login', 302)).toBe('info'); // the auth routes are logged
  });

  it('logs API answers, failed pages and writes at info', () => {
    expect(level('GET', '/api/v1/levels', 200)).toBe('info');
    expect(level('GET', '/levels/9999', 404)).toBe('info');
    expect(level('GET', '/levels/27', 500)).toBe('info');
    expect(level('GET', '/levels/27', 200, new Error('aborted'))).toBe('info');
    expect(level('POST', '/levels/27/feedback', 201)).toBe('info');
  });
});

describe('the completion line of an answer', () => {
  /** One request through pino-http with the app's options; resolves with the lines it wrote. */
  async function logged(status: number, error?: Error): Promise<Record<string, unknown>[]> {
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const middleware = pinoHttp({ ...requestLogOptions(loadConfig({ LOG_LEVEL: 'info' })), stream } as unknown as Parameters<typeof pinoHttp>[0]);
    const server = createServer((req, res) => {
      middleware(req, res);
      if (error) (res as ServerResponse & { err?: Error }).err = error;
      res.statusCode = status;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}/api/v1/images`, { method: 'POST' })).text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => server.close(resolve));
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it.each([
    [503, new Error('The image tool is busy: try again in a moment')],
    [503, undefined],
    [404, undefined],
    [429, Object.assign(new Error('Too many requests'), { code: 'HTTP.429' })],
  ])('is one line without a stack for %i (before: 5xx lines carried the error with its stack, at info)', async (status, error) => {
    const [line, ...more] = await logged(status, error);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 30, res: { statusCode: status }, req: { method: 'POST', path: '/api/v1/images' } });
    expect(line).not.toHaveProperty('err');
    expect(JSON.stringify(line)).not.toMatch(/\\n\s+at /);
    if (error) expect(line!.error).toBe(`Error${status === 429 ? ' HTTP.429' : ''}: ${error.message}`);
  });
});
