const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Money as every page writes it: always with cents, so "$2.00" stands beside "$2.99" and a
 * refund of nothing reads "$0.00" (499 → "$4.99", 200 → "$2.00", 150000 → "$1,500.00").
 * The one formatter for amounts in cents; the donation chips' whole-dollar picks are not amounts.
 */
export const formatUsd = (cents: number): string => USD.format(cents / 100);
