import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseLogFormat, requestLogLevel } from './logging.module';

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
