import { useEffect } from 'react';
import {
  BRANCH_QUALIFICATION_TEXT,
  validateBranchSettings,
  type BranchQualificationRule,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, Spinner, TextField, useTimedMessage } from '@grove/web-ui';
import { useBranchSettings, useSaveBranchSettings } from './api/branch-settings';

/** The form's values: the rule and the days as typed. */
interface BranchRuleForm {
  rule: BranchQualificationRule;
  days: string;
}

/** The form's days as the API takes them: a number, or null when left empty. */
const daysOf = (typed: string): number | null => (typed.trim() === '' ? null : Number(typed));

/** The contracts' rule (`validateBranchSettings`) on the form's values. */
const validateForm = (values: BranchRuleForm) =>
  validateBranchSettings({ rule: values.rule, days: daysOf(values.days) });

/**
 * 'When a branch counts' on Account Settings (docs/product.md#branch-qualification): the owner
 * chooses when a new branch starts lowering its referrer's price: when approved (the default),
 * after some days as a member (1–365), or after a Mindbody or Stripe friend's first payment
 * (friends added by hand then count at approval). Until then the branch shows as Pending. A new rule applies to
 * branches still pending; branches already counting keep counting.
 */
export function BranchRuleCard() {
  const settings = useBranchSettings();
  const save = useSaveBranchSettings();
  const [saved, setSaved] = useTimedMessage();
  const {
    submit,
    field,
    register,
    reset,
    watch,
    formState: { isSubmitting },
  } = useContractForm<BranchRuleForm>(validateForm, {
    defaultValues: { rule: 'approval', days: '' },
    fields: ['days'],
    onSubmit: async (values) => {
      setSaved(null);
      await save.mutateAsync({ rule: values.rule, days: daysOf(values.days) });
      setSaved('Saved');
    },
  });
  useEffect(() => {
    if (settings.data)
      reset({ rule: settings.data.rule, days: settings.data.days?.toString() ?? '' });
  }, [settings.data, reset]);
  const rule = watch('rule');

  return (
    <Card className="dash-account__card" aria-labelledby="branch-rule-title">
      <h2 className="dash-account__title" id="branch-rule-title">
        When a branch counts
      </h2>
      <p className="g-muted dash-account__lead">
        Choose when a new branch starts lowering its referrer’s price. Until then it shows as
        Pending. A change applies to branches still pending; branches already counting keep
        counting.
      </p>
      {settings.isError ? (
        <Alert>{settings.error.message}</Alert>
      ) : !settings.data ? (
        <Spinner label="Loading your branch rule…" />
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="branch-rule-title">
          <fieldset className="dash-emails" aria-labelledby="branch-rule-title">
            {BRANCH_QUALIFICATION_TEXT.map((choice) => (
              <label key={choice.rule} className="dash-emails__option">
                <input type="radio" value={choice.rule} {...register('rule')} />
                <span>
                  <span className="dash-emails__label">{choice.label}</span>
                  <span className="dash-emails__example g-muted">{choice.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {rule === 'days' && (
            <TextField label="Days as a member" inputMode="numeric" {...field('days')} />
          )}
          {save.isError && <Alert>{save.error.message}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          <Button type="submit" busy={isSubmitting}>
            Save rule
          </Button>
        </form>
      )}
    </Card>
  );
}
