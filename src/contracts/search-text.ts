// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;
/** A dash followed, across anything but letters and digits, by another dash: a run of negations. */
const REPEATED_NEGATION = /-[^\p{L}\p{N}]*(?=-)/gu;

/**
 * A search term as PostgreSQL's websearch_to_tsquery can take it: control characters (NUL is
 * refused by PostgreSQL) become spaces, and a run of `-` (each a NOT; 33 nest past the tsquery
 * stack) is one `-`. Words, quotes and `or` are kept; empty gives undefined.
 */
export function searchText(raw: string | null | undefined): string | undefined {
  const text = (raw ?? '').replace(CONTROL_CHARS, ' ').replace(REPEATED_NEGATION, '').trim();
  return text ? text : undefined;
}

/**
 * A filter typed into a search field (an e-mail or order number to find): control characters
 * (PostgreSQL refuses NUL) become spaces, then trimmed and cut to `max`; empty gives undefined.
 */
export function filterText(raw: string | null | undefined, max: number): string | undefined {
  const text = (raw ?? '').replace(CONTROL_CHARS, ' ').trim().slice(0, max).trim();
  return text ? text : undefined;
}
