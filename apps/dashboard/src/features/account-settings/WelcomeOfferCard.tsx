import { useEffect, useState, type FormEvent } from 'react';
import {
  centsToDollarText,
  dollarsToCents,
  validateWelcomeOffer,
  WELCOME_OFFER_TEXT_MAX_LENGTH,
  welcomeOfferWording,
  type FieldErrors,
  type WelcomeOffer,
  type WelcomeOfferFields,
  type WelcomeOfferKind,
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
import {
  useSaveWelcomeOffer,
  useWelcomeOffer,
} from '../../components/welcome-offer/welcome-offer-api';

/** The kinds as the owner chooses them. */
export const WELCOME_OFFER_CHOICES: readonly { value: WelcomeOfferKind; label: string }[] = [
  { value: 'none', label: 'No offer' },
  { value: 'amount', label: 'An amount off for some months' },
  { value: 'percent', label: 'A percentage off for some months' },
  { value: 'free', label: 'First months free' },
  { value: 'text', label: 'Something else, in your words (you honour it by hand)' },
];

/** The form's fields as typed (amounts as text, in the business's currency units). */
interface Draft {
  kind: WelcomeOfferKind;
  amount: string;
  percent: string;
  months: string;
  text: string;
}

const toDraft = (offer: WelcomeOfferFields): Draft => ({
  kind: offer.kind,
  amount: offer.amountCents ? centsToDollarText(offer.amountCents) : '',
  percent: offer.percent ? String(offer.percent) : '',
  months: offer.months ? String(offer.months) : '1',
  text: offer.text ?? '',
});

/** A whole number typed in a field, or NaN (refused by the rule with its message). */
const wholeNumber = (text: string): number => (/^\d+$/.test(text.trim()) ? Number(text) : NaN);

/** The body the draft sends: the API's shape, amounts in cents. */
function toOffer(draft: Draft): WelcomeOffer {
  return {
    kind: draft.kind,
    amountCents: draft.kind === 'amount' ? (dollarsToCents(draft.amount) ?? NaN) : null,
    percent: draft.kind === 'percent' ? wholeNumber(draft.percent) : null,
    months: ['amount', 'percent', 'free'].includes(draft.kind) ? wholeNumber(draft.months) : null,
    text: draft.kind === 'text' ? draft.text.trim() : null,
  };
}

/**
 * 'Welcome offer' on Account Settings (issue 33 item 1, docs/product.md#welcome-offer): what a
 * referred friend gets (none; an amount off for N months; a percentage off for N months; the first
 * N months free; or an offer in the owner's words), with a preview of the one wording the join
 * page, the approval and the welcome email use (`welcomeOfferWording`, the business's money
 * format). Checked by contracts' `validateWelcomeOffer` before 'Save offer' sends it (`PUT
 * /api/settings/welcome-offer`); the API's 400 messages show under their fields.
 */
export function WelcomeOfferCard() {
  const stored = useWelcomeOffer();
  const save = useSaveWelcomeOffer();
  const formats = useLocaleFormats();
  const [saved, setSaved] = useTimedMessage();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<FieldErrors<WelcomeOffer>>({});
  useEffect(() => {
    if (stored.data) setDraft(toDraft(stored.data));
  }, [stored.data]);

  const set = (field: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((current) => (current ? { ...current, [field]: event.target.value } : current));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    setSaved(null);
    const offer = toOffer(draft);
    const found = validateWelcomeOffer(offer);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      setDraft(toDraft(await save.mutateAsync(offer)));
      setSaved('Saved');
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors);
    }
  };

  const wording = draft ? welcomeOfferWording(toOffer(draft), formats) : null;
  const withMonths = draft && ['amount', 'percent', 'free'].includes(draft.kind);

  return (
    <Card className="dash-account__card" aria-labelledby="welcome-offer-title">
      <h2 className="dash-account__title" id="welcome-offer-title">
        Welcome offer
      </h2>
      <p className="g-muted dash-account__lead">
        What a friend gets for joining through a member’s link. The join page, your approval and the
        welcome email say it; once you approve the friend it is listed under ‘Welcome offers to
        honour’ on Prospective Members.
      </p>
      {stored.isError ? (
        <Alert>{stored.error.message}</Alert>
      ) : !draft ? (
        <Spinner label="Loading your welcome offer…" />
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="welcome-offer-title">
          <SelectField
            label="Offer"
            options={WELCOME_OFFER_CHOICES}
            value={draft.kind}
            onChange={set('kind')}
            error={errors.kind}
          />
          {draft.kind === 'amount' && (
            <TextField
              label="Amount off each month"
              inputMode="decimal"
              value={draft.amount}
              onChange={set('amount')}
              error={errors.amountCents}
            />
          )}
          {draft.kind === 'percent' && (
            <TextField
              label="Percentage off each month"
              inputMode="numeric"
              value={draft.percent}
              onChange={set('percent')}
              error={errors.percent}
            />
          )}
          {withMonths && (
            <TextField
              label="For the first … months"
              inputMode="numeric"
              value={draft.months}
              onChange={set('months')}
              error={errors.months}
            />
          )}
          {draft.kind === 'text' && (
            <TextField
              label="The offer"
              placeholder="a free class"
              maxLength={WELCOME_OFFER_TEXT_MAX_LENGTH * 2}
              value={draft.text}
              onChange={set('text')}
              error={errors.text}
              hint={`${[...draft.text.trim()].length}/${WELCOME_OFFER_TEXT_MAX_LENGTH}`}
            />
          )}
          <div className="dash-share__preview" aria-live="polite">
            <span className="dash-share__preview-label g-muted">What friends see</span>
            <p data-testid="welcome-offer-preview">
              {draft.kind === 'none'
                ? 'No welcome offer: friends see only the thank-you to the member who invited them.'
                : (wording ?? 'Fill in the offer to see how friends read it.')}
            </p>
          </div>
          {save.isError && <Alert>{save.error.message}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          <div className="dash-share__actions">
            <Button type="submit" busy={save.isPending}>
              Save offer
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
