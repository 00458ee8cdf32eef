import { useId, useState, type FormEvent } from 'react';
import {
  ANALYTICS_PRESET_DAYS,
  resolveAnalyticsPeriod,
  utcDay,
  type AnalyticsPeriodQuery,
} from '@grove/contracts';
import { Button } from '@grove/web-ui';

/** A labelled date field; `error` is the id of the message that explains it, while there is one. */
function DateInput({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        className="g-field__input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error !== undefined}
        aria-describedby={error}
      />
    </>
  );
}

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
  const errorId = error ? `${id}-error` : undefined;
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
          <DateInput
            id={`${id}-from`}
            label="From"
            value={from}
            onChange={setFrom}
            error={errorId}
          />
          <DateInput id={`${id}-to`} label="To" value={to} onChange={setTo} error={errorId} />
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
