import { chooseLogFormat } from './logging.module';

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
