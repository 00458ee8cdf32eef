import { useEffect } from 'react';
import { AUDIT_RETENTION_DAYS, validateAuditRetention } from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, Spinner, TextField, useTimedMessage } from '@grove/web-ui';
import { useActivityRetention, useSaveActivityRetention } from './api/retention';

/** The form's value: the days as typed. */
interface RetentionForm {
  days: string;
}

/** The typed days as the API takes them (a number; NaN when not one, which the rule refuses). */
const daysOf = (typed: string): number => (typed.trim() === '' ? Number.NaN : Number(typed));

/** The contracts' rule (`validateAuditRetention`) on the form's value. */
const validateForm = (values: RetentionForm) =>
  validateAuditRetention({ days: daysOf(values.days) });

/**
 * Account Settings → Your data → 'Activity log' (issue 34 item 2, docs/product.md#audit-log;
 * owners only, as the route): how many days the activity log is kept, 30 to 3650 (two years, 730,
 * by default). Older entries go at the next daily clean-up.
 */
export function ActivityRetentionCard() {
  const retention = useActivityRetention();
  const save = useSaveActivityRetention();
  const [saved, setSaved] = useTimedMessage();
  const {
    submit,
    field,
    reset,
    formState: { isSubmitting },
  } = useContractForm<RetentionForm>(validateForm, {
    defaultValues: { days: String(AUDIT_RETENTION_DAYS.default) },
    fields: ['days'],
    onSubmit: async (values) => {
      setSaved(null);
      await save.mutateAsync(daysOf(values.days));
      setSaved('Saved');
    },
  });
  useEffect(() => {
    if (retention.data) reset({ days: String(retention.data.days) });
  }, [retention.data, reset]);

  return (
    <Card className="dash-account__card" aria-labelledby="retention-title">
      <h2 className="dash-account__title" id="retention-title">
        Activity log
      </h2>
      <p className="dash-account__lead">
        How long Grove keeps the record of every change (Activity): from {AUDIT_RETENTION_DAYS.min}{' '}
        to {AUDIT_RETENTION_DAYS.max} days, two years by default. Older entries are deleted at the
        next daily clean-up.
      </p>
      {retention.isError ? (
        <Alert>{retention.error.message}</Alert>
      ) : !retention.data ? (
        <Spinner label="Loading how long activity is kept…" />
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="retention-title">
          <TextField label="Keep activity for (days)" inputMode="numeric" {...field('days')} />
          {save.isError && <Alert>{save.error.message}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          <Button type="submit" busy={isSubmitting}>
            Save
          </Button>
        </form>
      )}
    </Card>
  );
}
