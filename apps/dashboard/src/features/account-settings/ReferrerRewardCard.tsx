import { useEffect, useState, type FormEvent } from 'react';
import {
  centsToDollarText,
  dollarsToCents,
  FREE_PERIOD_UNITS,
  REFERRER_GIFT_MAX_LENGTH,
  referrerRewardWording,
  validateReferrerReward,
  type FieldErrors,
  type FreePeriodUnit,
  type ReferrerReward,
  type ReferrerRewardFields,
  type ReferrerRewardKind,
} from '@grove/contracts';
import { ApiError, useLocaleFormats } from '@grove/web-data-access';
import {
  Alert,
  Button,
  Card,
  SelectField,
  Spinner,
  TextField,
  useTimedMessage,
} from '@grove/web-ui';
import { useReferrerReward, useSaveReferrerReward } from './api/referrer-reward';

/** The kinds as the owner chooses them. */
export const REFERRER_REWARD_CHOICES: readonly { value: ReferrerRewardKind; label: string }[] = [
  {
    value: 'discount',
    label: 'An ongoing discount per friend (each member’s discount per referral)',
  },
  { value: 'credit', label: 'A one-off credit per friend' },
  { value: 'free', label: 'A free period per friend' },
  { value: 'gift', label: 'A gift, in your words (you honour it by hand)' },
];

const UNIT_CHOICES: readonly { value: FreePeriodUnit; label: string }[] = FREE_PERIOD_UNITS.map(
  (unit) => ({ value: unit, label: unit === 'week' ? 'Weeks' : 'Months' }),
);

/** The form's fields as typed (amounts as text, in the business's currency units). */
interface Draft {
  kind: ReferrerRewardKind;
  credit: string;
  freeCount: string;
  freeUnit: FreePeriodUnit;
  giftText: string;
  capPercent: string;
  yearlyCap: string;
  maxBranches: string;
}

const toDraft = (reward: ReferrerRewardFields): Draft => ({
  kind: reward.kind,
  credit: reward.creditCents ? centsToDollarText(reward.creditCents) : '',
  freeCount: reward.freeCount ? String(reward.freeCount) : '1',
  freeUnit: reward.freeUnit ?? 'month',
  giftText: reward.giftText ?? '',
  capPercent: String(reward.capPercent),
  yearlyCap: reward.yearlyCapCents ? centsToDollarText(reward.yearlyCapCents) : '',
  maxBranches: reward.maxBranchesPerYear ? String(reward.maxBranchesPerYear) : '',
});

/** A whole number typed in a field, or NaN (refused by the rule with its message). */
const wholeNumber = (text: string): number => (/^\d+$/.test(text.trim()) ? Number(text) : NaN);

/** The body the draft sends: the API's shape, amounts in cents; an empty cap is none. */
function toReward(draft: Draft): ReferrerReward {
  return {
    kind: draft.kind,
    creditCents: draft.kind === 'credit' ? (dollarsToCents(draft.credit) ?? NaN) : null,
    freeCount: draft.kind === 'free' ? wholeNumber(draft.freeCount) : null,
    freeUnit: draft.kind === 'free' ? draft.freeUnit : null,
    giftText: draft.kind === 'gift' ? draft.giftText.trim() : null,
    capPercent: wholeNumber(draft.capPercent),
    yearlyCapCents: draft.yearlyCap.trim() === '' ? null : (dollarsToCents(draft.yearlyCap) ?? NaN),
    maxBranchesPerYear: draft.maxBranches.trim() === '' ? null : wholeNumber(draft.maxBranches),
  };
}

/**
 * 'Reward for referrers' on Account Settings → Members & rewards (issue 33 item 2,
 * docs/product.md#referrer-reward): what a member gets per counting branch (the ongoing discount,
 * a one-off credit, a free period or a gift: those three listed on Branches, 'Rewards to honour')
 * and the caps (the most friends rewarded a year, for every kind; for the ongoing discount also
 * the most a member can save, in percent of their price, and a yearly cap). Checked by contracts'
 * `validateReferrerReward` before 'Save reward' sends it (`PUT /api/settings/referrer-reward`);
 * the API's 400 messages show under their fields.
 */
export function ReferrerRewardCard() {
  const stored = useReferrerReward();
  const save = useSaveReferrerReward();
  const formats = useLocaleFormats();
  const [saved, setSaved] = useTimedMessage();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<FieldErrors<ReferrerReward>>({});
  useEffect(() => {
    if (stored.data) setDraft(toDraft(stored.data));
  }, [stored.data]);

  const set = (field: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((current) => (current ? { ...current, [field]: event.target.value } : current));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    setSaved(null);
    const reward = toReward(draft);
    const found = validateReferrerReward(reward);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      setDraft(toDraft(await save.mutateAsync(reward)));
      setSaved('Saved');
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors);
    }
  };

  const wording = draft ? referrerRewardWording(toReward(draft), formats) : null;

  return (
    <Card className="dash-account__card" aria-labelledby="referrer-reward-title">
      <h2 className="dash-account__title" id="referrer-reward-title">
        Reward for referrers
      </h2>
      <p className="g-muted dash-account__lead">
        What a member gets for each friend who counts as their branch, and how far their discount
        can go. Branches past the cap still count; Branches shows the member as capped.
      </p>
      {stored.isError ? (
        <Alert>{stored.error.message}</Alert>
      ) : !draft ? (
        <Spinner label="Loading your referrer reward…" />
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="referrer-reward-title">
          <SelectField
            label="Reward"
            options={REFERRER_REWARD_CHOICES}
            value={draft.kind}
            onChange={set('kind')}
            error={errors.kind}
            hint={
              draft.kind === 'discount'
                ? undefined
                : 'Branches then stop lowering prices. When a friend starts counting, Branches lists the reward under Rewards to honour: give it, then mark it honoured.'
            }
          />
          {draft.kind === 'credit' && (
            <TextField
              label="Credit per friend"
              inputMode="decimal"
              value={draft.credit}
              onChange={set('credit')}
              error={errors.creditCents}
            />
          )}
          {draft.kind === 'free' && (
            <div className="dash-reward__period">
              <TextField
                label="Free per friend"
                inputMode="numeric"
                value={draft.freeCount}
                onChange={set('freeCount')}
                error={errors.freeCount ?? errors.freeUnit}
              />
              <SelectField
                label="Unit"
                options={UNIT_CHOICES}
                value={draft.freeUnit}
                onChange={set('freeUnit')}
              />
            </div>
          )}
          {draft.kind === 'gift' && (
            <TextField
              label="The gift"
              placeholder="a Grove hoodie"
              maxLength={REFERRER_GIFT_MAX_LENGTH * 2}
              value={draft.giftText}
              onChange={set('giftText')}
              error={errors.giftText}
              hint={`${[...draft.giftText.trim()].length}/${REFERRER_GIFT_MAX_LENGTH}`}
            />
          )}
          {draft.kind === 'discount' && (
            <>
              <TextField
                label="Most a member can save, % of their price"
                inputMode="numeric"
                value={draft.capPercent}
                onChange={set('capPercent')}
                error={errors.capPercent}
                hint="At 100% a member's branches can take their whole price off."
              />
              <TextField
                label="Yearly cap (optional)"
                inputMode="decimal"
                value={draft.yearlyCap}
                onChange={set('yearlyCap')}
                error={errors.yearlyCapCents}
                hint="The most a member saves in a year; a twelfth of it each month."
              />
            </>
          )}
          <TextField
            label="Most friends rewarded a year (optional)"
            inputMode="numeric"
            value={draft.maxBranches}
            onChange={set('maxBranches')}
            error={errors.maxBranchesPerYear}
            hint={
              draft.kind === 'discount'
                ? 'The discount counts at most this many friends; more still count as branches.'
                : 'Friends past it this year still count as branches, with nothing owed.'
            }
          />
          <div className="dash-share__preview" aria-live="polite">
            <span className="dash-share__preview-label g-muted">What a referrer gets</span>
            <p data-testid="referrer-reward-preview">
              {wording ?? 'Fill in the reward to see how it reads.'}
            </p>
          </div>
          {save.isError && <Alert>{save.error.message}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          <div className="dash-share__actions">
            <Button type="submit" busy={save.isPending}>
              Save reward
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
