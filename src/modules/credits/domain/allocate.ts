/** How a spend is split over lots: the one that expires soonest first. `lots` come sorted that way. */
export function allocate(lots: readonly { id: string; remaining: number }[], amount: number): { lotId: string; amount: number }[] | null {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('A spend is a positive whole number of credits');
  const parts: { lotId: string; amount: number }[] = [];
  let left = amount;
  for (const lot of lots) {
    if (left === 0) break;
    const take = Math.min(lot.remaining, left);
    if (take <= 0) continue;
    parts.push({ lotId: lot.id, amount: take });
    left -= take;
  }
  return left === 0 ? parts : null;
}
