/*
 * A table that is a table from 640 px and a stack of cards below, each row a card of "label: value"
 * lines (the label is the cell's data-label, drawn by CSS; screen readers still get the column
 * headers, which stay in the markup). A phone neither scrolls it sideways nor loses a column. The
 * same pattern as the billing orders table and the in-process queues page.
 */

/** Around the table: a sideways scroll only where it is a table (the cards never overflow). */
export const stackedFrame = 'mt-3 rounded-3xl border border-gray-200 bg-white shadow-sm sm:overflow-x-auto dark:border-gray-800 dark:bg-gray-900/60';
export const stackedTable = 'w-full text-left text-sm max-sm:block';
/** The header row, visually hidden on a phone (each card line carries its label). */
export const stackedHead = 'bg-gray-50 text-xs tracking-wide text-gray-600 uppercase max-sm:sr-only dark:bg-gray-900 dark:text-gray-400';
export const stackedBody = 'divide-y divide-gray-200 max-sm:block dark:divide-gray-800';
export const stackedRow = 'max-sm:block max-sm:px-4 max-sm:py-3';
/** What makes a cell a card line on a phone: its label on the left, the value on the right. */
export const stackedLine =
  'max-sm:flex max-sm:justify-between max-sm:gap-4 max-sm:px-0 max-sm:py-0.5 max-sm:text-right max-sm:break-words max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-gray-600 max-sm:before:content-[attr(data-label)] dark:max-sm:before:text-gray-400';
/** A cell of the table (give it a data-label). */
export const stackedCell = `px-4 py-2.5 align-top ${stackedLine}`;
