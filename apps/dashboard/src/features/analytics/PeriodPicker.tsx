import { useId, useState, type FormEvent } from 'react';
import {
  ANALYTICS_PRESET_DAYS,
  resolveAnalyticsPeriod,
  utcDay,
  type AnalyticsPeriodQuery,
} from '@grove/contracts';
import { Button } from '@grove/web-ui';

/**
 * The period of the analytics screen: the last 30, 90 or 365 days, or custom dates checked with
 * the API's own rule (contracts' `resolveAnalyticsPeriod`) before they are asked for, so a bad
 * range shows its message under the fields instead of a failed request.
 */
export function PeriodPicker({
  value,
  onChange,
}: {
  value: AnalyticsPeriodQuery;
  onChange: (query: AnalyticsPeriodQuery) => void;
}) {
  const id = useId();
  const [custom, setCustom] = useState(value.from !== undefined);
  const [from, setFrom] = useState(value.from ?? '');
  const [to, setTo] = useState(value.to ?? '');
  const [error, setError] = useState<string | null>(null);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const resolved = resolveAnalyticsPeriod({ from, to }, utcDay(new Date()));
    if (resolved.error) {
      setError(resolved.error.message);
      return;
    }
    setError(null);
    onChange({ from, to });
  };
  return (
    <div className="dash-period">
      <div className="dash-period__presets" role="group" aria-label="Period">
        {ANALYTICS_PRESET_DAYS.map((days) => {
          const active = !custom && value.period === String(days);
          return (
            <Button
              key={days}
              size="sm"
              variant={active ? 'primary' : 'secondary'}
              aria-pressed={active}
              onClick={() => {
                setCustom(false);
                setError(null);
                onChange({ period: String(days) });
              }}
            >
              Last {days} days
            </Button>
          );
        })}
        <Button
          size="sm"
          variant={custom ? 'primary' : 'secondary'}
          aria-pressed={custom}
          onClick={() => setCustom(true)}
        >
          Custom
        </Button>
      </div>
      {custom && (
        <form className="dash-period__custom" onSubmit={apply} noValidate>
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            className="g-field__input"
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            type="date"
            className="g-field__input"
            value={to}
            onChange={(event) => setTo(event.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <Button size="sm" type="submit">
            Show
          </Button>
          {error && (
            <p className="g-field__error dash-period__error" id={`${id}-error`} role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
