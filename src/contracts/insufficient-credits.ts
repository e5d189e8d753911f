/**
 * The code of the 402 answer that opens the low-credit modals (re-exported by billing.ts). A module
 * of its own: the entry every page loads checks API answers for it (web/lib/low-credit.ts), and
 * importing it from billing.ts put that whole module, order statuses and price formatting, there too.
 */
export const INSUFFICIENT_CREDITS = 'CREDITS.INSUFFICIENT';
