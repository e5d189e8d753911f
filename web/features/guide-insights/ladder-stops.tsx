import type { GuideInsightRow } from 'src/contracts/guide-insights';
import { mutedClass } from 'web/components/account-ui';

const rungName = (revealed: number) => (revealed === 0 ? 'before any hint' : `after hint ${revealed}`);

/**
 * Where players stop: the rung after which most still tapped "Still stuck" (the hint to rewrite),
 * and, unfolded, every ladder of the guide with how many tapped solved or stuck at each rung.
 */
export function LadderStopsCell({ guide }: { guide: GuideInsightRow }) {
  const { stuck_at: at, ladders } = guide;
  const counted = ladders.some((ladder) => ladder.rungs.length > 0);
  return (
    <div className="text-left">
      {at ? (
        <p data-testid="stuck-at">
          {at.question ?? 'The hints'}: <strong>{rungName(at.revealed)}</strong> <span className={mutedClass}>({at.players})</span>
        </p>
      ) : (
        <span className={mutedClass}>—</span>
      )}
      {counted && (
        <details className="mt-1">
          <summary className="cursor-pointer text-xs font-semibold">Ladders</summary>
          {ladders.map((ladder) => (
            <div key={ladder.ladder} className="mt-2" data-ladder={ladder.ladder}>
              <p className="text-xs font-semibold">{ladder.question ?? 'The hints'}</p>
              <ol className={`text-xs ${mutedClass}`}>
                {Array.from({ length: ladder.hints + 1 }, (_, revealed) => {
                  const rung = ladder.rungs.find((r) => r.revealed === revealed);
                  return (
                    <li key={revealed} data-rung={revealed}>
                      {rungName(revealed)}: {rung?.solved ?? 0} solved, {rung?.stuck ?? 0} stuck
                    </li>
                  );
                })}
              </ol>
            </div>
          ))}
        </details>
      )}
    </div>
  );
}
