/** ?page=N, 1 when absent or not a sensible number. */
export function pageNumber(url: URL): number {
  const page = Number(url.searchParams.get('page') ?? 1);
  return Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1;
}
