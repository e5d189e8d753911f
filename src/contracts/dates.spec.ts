import { dateFormat } from './date-format';
import { formatDate, formatMonth, InvalidDateError, parseIsoDate } from './dates';

describe('ISO dates', () => {
  it.each(['2026-10-02', '2026-10-02T08:30', '2026-10-02 08:30:15', '2026-10-02T08:30:15Z', '2026-10-02T08:30:15.120+02:00'])(
    'accepts %s',
    (value) => expect(parseIsoDate(value)).toBeInstanceOf(Date),
  );

  it.each(['02/10/2026', '2026-10-2', '2026-02-30', '2026-13-01', 'yesterday', '', '2026-10-02T25:00', '2026-10-02garbage'])(
    'refuses %j with the invalid-date error',
    (value) => expect(() => parseIsoDate(value)).toThrow(InvalidDateError),
  );

  it('formats in UTC, so server and browser agree', () => {
    expect(formatDate('2026-10-02')).toBe('October 2, 2026');
    expect(formatDate('2026-10-02T23:30:00-05:00')).toBe('October 3, 2026');
  });

  it('formats months, and leaves what is not a month as it is', () => {
    expect(formatMonth('2026-10')).toBe('October 2026');
    expect(formatMonth('2026-10', 'fr')).toBe('octobre 2026');
    expect(formatMonth('2026-13')).toBe('2026-13');
  });

  it('makes one formatter per locale and style, not one per date', () => {
    expect(dateFormat('en-US', 'day')).toBe(dateFormat('en-US', 'day'));
    expect(dateFormat('en-US', 'day')).not.toBe(dateFormat('fr', 'day'));
    expect(formatDate('2026-10-02', 'fr')).toBe('2 octobre 2026');
  });
});
