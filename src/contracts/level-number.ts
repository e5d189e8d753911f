/** The spec's messages for the level-number search box (header and home), copied exactly. */
export const LEVEL_SEARCH_MESSAGES = {
  empty: 'Please enter a level number',
  invalid: 'Invalid level number',
} as const;

export type LevelSearchResult =
  | { ok: true; level: number }
  | { ok: false; message: (typeof LEVEL_SEARCH_MESSAGES)[keyof typeof LEVEL_SEARCH_MESSAGES] };

/**
 * Reads what a player typed into a level search box. Only digits are accepted (no sign, exponent
 * or spaces) and the number must lie between 1 and `max`. Runs the same in the browser and the server.
 */
export function parseLevelSearch(raw: string, max: number): LevelSearchResult {
  if (raw.trim() === '') return { ok: false, message: LEVEL_SEARCH_MESSAGES.empty };
  if (!/^\d+$/.test(raw)) return { ok: false, message: LEVEL_SEARCH_MESSAGES.invalid };
  const digits = raw.replace(/^0+/, '');
  // Compare by length first so a 5,000-digit string never becomes Infinity.
  if (digits === '' || digits.length > String(max).length) return { ok: false, message: LEVEL_SEARCH_MESSAGES.invalid };
  const level = Number(digits);
  return level > max ? { ok: false, message: LEVEL_SEARCH_MESSAGES.invalid } : { ok: true, level };
}
