import { toErrorResponse } from 'src/platform/errors/app-error.filter';
import { newGuideReport, retentionCutoff } from './guide-report';
import { InvalidGuideReportError, NoGuideToReportError } from './guide-reports.errors';

const ID = '5b0c1f4e-3d2a-4c8b-9e7f-1a2b3c4d5e6f';
const NOW = new Date('2026-11-23T12:00:00Z');

describe('newGuideReport', () => {
  it('keeps the kind and the trimmed message, dated now', () => {
    expect(newGuideReport({ id: ID, levelNumber: 27, kind: 'wrong_step', message: '  Step 3 says left; it is right.\n' }, NOW)).toEqual({
      id: ID,
      levelNumber: 27,
      kind: 'wrong_step',
      message: 'Step 3 says left; it is right.',
      createdAt: NOW,
    });
  });

  it('treats a blank message as none', () => {
    expect(newGuideReport({ id: ID, levelNumber: 27, kind: 'other', message: ' \n ' }, NOW).message).toBeUndefined();
    expect(newGuideReport({ id: ID, levelNumber: 27, kind: 'other' }, NOW).message).toBeUndefined();
  });

  it('removes control characters that could forge lines in a mail or a log, keeping line breaks', () => {
    expect(newGuideReport({ id: ID, levelNumber: 1, kind: 'other', message: 'a\u0000b\u001b[31mc\nd' }, NOW).message).toBe('ab[31mc\nd');
  });

  it('refuses an unknown kind and a message over 1000 characters, by code', () => {
    expect(() => newGuideReport({ id: ID, levelNumber: 1, kind: 'spam', message: 'x' }, NOW)).toThrow(InvalidGuideReportError);
    expect(() => newGuideReport({ id: ID, levelNumber: 1, kind: 'other', message: 'x'.repeat(1001) }, NOW)).toThrow('at most 1000 characters');
    expect(newGuideReport({ id: ID, levelNumber: 1, kind: 'other', message: 'x'.repeat(1000) }, NOW).message).toHaveLength(1000);
  });
});

describe('retention', () => {
  it('keeps reports 180 days', () => {
    expect(retentionCutoff(NOW).toISOString()).toBe('2026-05-27T12:00:00.000Z');
  });
});

describe('errors over HTTP', () => {
  it('answers a level without a guide with 404 and an invalid report with 400, each with its code', () => {
    expect(toErrorResponse(new NoGuideToReportError(15))).toMatchObject({ status: 404, body: { code: 'GUIDE_REPORTS.NO_GUIDE' } });
    expect(toErrorResponse(new InvalidGuideReportError('kind is one of …'))).toMatchObject({ status: 400, body: { code: 'GUIDE_REPORTS.INVALID' } });
  });
});
