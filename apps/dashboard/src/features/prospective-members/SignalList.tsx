import { JOIN_FLAG_REASON_TEXT, type JoinSignal } from '@grove/contracts';

/**
 * The fraud signals of a join in words (issue 15 part 4; `JOIN_FLAG_REASON_TEXT`), one per line:
 * a flagged join's reasons, or a prospect's flags.
 */
export function SignalList({ signals }: { signals: readonly JoinSignal[] }) {
  return (
    <ul className="dash-flags__reasons">
      {signals.map((signal) => (
        <li key={signal}>{JOIN_FLAG_REASON_TEXT[signal] ?? signal}</li>
      ))}
    </ul>
  );
}
