import { useEffect } from 'react';
import {
  DEFAULT_SHARE_MESSAGE,
  fillShareMessage,
  SHARE_MESSAGE_MAX_LENGTH,
  validateShareMessage,
  welcomeOfferWording,
  type ShareMessageSettings,
} from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, Spinner, TextArea, useTimedMessage } from '@grove/web-ui';
import { useSaveShareMessage, useShareMessage } from './api/share-message';
import { useWelcomeOffer } from '../../components/welcome-offer/welcome-offer-api';

/** The member the preview is written for. */
export const PREVIEW_FIRST_NAME = 'Sam';

/**
 * 'Message members share' on Account Settings (issue 33 item 3, docs/product.md#share-message):
 * the message the member page's WhatsApp, Text it, Email it and Share send, with `{firstName}`,
 * `{gym}`, `{offer}` (the friend's welcome offer, as the Welcome offer card words it; empty for
 * none) and `{link}` filled in per member. A live preview shows it for an example member of the
 * owner's business (`businessName`); the form checks contracts' `validateShareMessage` (the API's
 * rule and messages) and 'Save message' saves it (`PUT /api/settings/share-message`).
 */
export function ShareMessageCard({ businessName }: { businessName?: string } = {}) {
  const stored = useShareMessage();
  const save = useSaveShareMessage();
  const offer = welcomeOfferWording(useWelcomeOffer().data, useLocaleFormats());
  const [saved, setSaved] = useTimedMessage();
  const {
    submit,
    field,
    reset,
    watch,
    setValue,
    formState: { isSubmitting },
  } = useContractForm<ShareMessageSettings>(validateShareMessage, {
    defaultValues: { message: '' },
    trim: ['message'],
    fields: ['message'],
    onSubmit: async (values) => {
      setSaved(null);
      reset(await save.mutateAsync(values));
      setSaved('Saved');
    },
  });
  useEffect(() => {
    if (stored.data) reset(stored.data);
  }, [stored.data, reset]);
  const message = watch('message');
  const preview = fillShareMessage(message.trim(), {
    firstName: PREVIEW_FIRST_NAME,
    gym: businessName || 'your gym',
    offer: offer ?? '',
    link: `${window.location.origin}/referral/Xy7pQ2`,
  });

  return (
    <Card className="dash-account__card" aria-labelledby="share-message-title">
      <h2 className="dash-account__title" id="share-message-title">
        Message members share
      </h2>
      <p className="g-muted dash-account__lead">
        Your members send this to friends with one tap (WhatsApp, text, email or their phone’s share
        menu). Grove fills in {'{firstName}'} (the member’s first name), {'{gym}'} (your business’s
        name), {'{offer}'} (your welcome offer for the friend, when you have one) and {'{link}'}
        (their referral link).
      </p>
      {stored.isError ? (
        <Alert>{stored.error.message}</Alert>
      ) : !stored.data ? (
        <Spinner label="Loading your message…" />
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="share-message-title">
          <TextArea
            label="Message"
            rows={4}
            hint={`${[...message.trim()].length}/${SHARE_MESSAGE_MAX_LENGTH}`}
            {...field('message')}
          />
          <div className="dash-share__preview" aria-live="polite">
            <span className="dash-share__preview-label g-muted">
              Preview for {PREVIEW_FIRST_NAME}
            </span>
            <p data-testid="share-preview">{preview}</p>
          </div>
          {save.isError && <Alert>{save.error.message}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          <div className="dash-share__actions">
            <Button type="submit" busy={isSubmitting}>
              Save message
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => setValue('message', DEFAULT_SHARE_MESSAGE, { shouldDirty: true })}
            >
              Use the default
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
