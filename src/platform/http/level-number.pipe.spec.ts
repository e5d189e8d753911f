import { loadConfig } from 'src/config/app-config';
import { toErrorResponse } from 'src/platform/errors/app-error.filter';
import { LevelNumberPipe } from './level-number.pipe';

describe('LevelNumberPipe', () => {
  const pipe = new LevelNumberPipe(loadConfig(undefined, { LEVEL_SEARCH_MAX: '635' }));

  it('reads 1 to the search maximum, written as the level page writes it', () => {
    expect(['1', '27', '635'].map((raw) => pipe.transform(raw))).toEqual([1, 27, 635]);
  });

  it.each(['0', '636', '027', '+27', '-1', '2.5', '1e3', ' 27', 'abc', '', '9'.repeat(5000)])('refuses %j with a 400 that names the range', (raw) => {
    let thrown: unknown;
    try {
      pipe.transform(raw);
    } catch (error) {
      thrown = error;
    }
    expect(toErrorResponse(thrown)).toMatchObject({
      status: 400,
      body: { code: 'REQUEST.INVALID', errors: ['Invalid level number: it must be a whole number from 1 to 635'] },
    });
  });
});
