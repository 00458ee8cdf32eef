import { CreditsPanel } from './CreditsPanel';
import { useState, type FormEvent } from 'react';
import {
  STRIPE_MEMBER_PERMISSIONS,
  centsToDollarText,
  memberBillFormats,
  mindbodyDiscountsFromForm,
  validateMindbodyDiscountsForm,
  validateStripeMembersKey,
  validateStripeMembersWebhook,
  type MindbodyDiscountsForm,
} from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, PageHeader, Spinner, TextField } from '@grove/web-ui';
import {
  useConnectStripe,
  useImportStripeMembers,
  useRemoveStripe,
  useSaveStripeDiscounts,
  useSaveStripeWebhook,
  useStripeMembersStatus,
  useStripePreview,
  useStripeSync,
  type StripeMembersStatus,
} from './api/stripe-members';
import { StripeRunStatus } from './StripeRunStatus';
import './stripe-setup.css';

/** '1 bill' / '1,200 bills': counts with the business's grouping (`LocaleFormats.count`). */
function useCount(): (n: number, one: string, many: string) => string {
  const formats = useLocaleFormats();
  return (n, one, many) => (n === 1 ? `1 ${one}` : `${formats.count(n)} ${many}`);
}

/** Stage 1: the restricted key, with the permissions it needs (docs/decisions/stripe-member-billing.md). */
function ConnectForm() {
  const connect = useConnectStripe();
  const [apiKey, setApiKey] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = validateStripeMembersKey({ apiKey });
    setInvalid(errors.apiKey);
    if (!errors.apiKey) connect.mutate(apiKey.trim());
  };
  return (
    <form className="mb-stripe-form" onSubmit={submit} noValidate>
      <p>
        In your Stripe Dashboard, create a restricted key (Developers → API keys → Create restricted
        key) with only these permissions, and paste it here:
      </p>
      <ul aria-label="Permissions the key needs">
        {STRIPE_MEMBER_PERMISSIONS.map((permission) => (
          <li key={permission.resource}>
            {permission.resource}: {permission.access}
          </li>
        ))}
      </ul>
      {connect.isError && <Alert>{connect.error.message}</Alert>}
      <TextField
        label="Restricted key"
        name="apiKey"
        autoComplete="off"
        value={apiKey}
        error={invalid}
        onChange={(event) => setApiKey(event.target.value)}
      />
      <Button type="submit" busy={connect.isPending}>
        Connect Stripe
      </Button>
    </form>
  );
}

/**
 * The webhook endpoint the owner adds in their Stripe Dashboard, and its signing secret pasted here
 * (docs/decisions/stripe-member-webhooks.md): how Grove learns of a friend's first paid invoice and
 * of a subscription that ended.
 */
function WebhookForm({ status }: { status: StripeMembersStatus }) {
  const save = useSaveStripeWebhook();
  const [secret, setSecret] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = validateStripeMembersWebhook({ signingSecret: secret });
    setInvalid(errors.signingSecret);
    if (!errors.signingSecret) save.mutate(secret.trim(), { onSuccess: () => setSecret('') });
  };
  return (
    <form className="mb-stripe-form" onSubmit={submit} noValidate>
      <p>
        So that a friend&apos;s first paid invoice and a cancelled subscription reach Grove, add a
        webhook endpoint in your Stripe Dashboard (Developers → Webhooks → Add destination) with the
        events <code>invoice.paid</code> and <code>customer.subscription.deleted</code> and this
        URL:
      </p>
      <output className="mb-stripe-url" aria-label="Webhook endpoint URL">
        {status.webhookUrl}
      </output>
      <p>Then reveal the endpoint&apos;s signing secret and paste it here.</p>
      {status.webhookConfigured && !save.isSuccess && (
        <p className="g-muted">A signing secret is saved. Paste a new one to replace it.</p>
      )}
      {save.isSuccess && <Alert tone="success">Signing secret saved.</Alert>}
      {save.isError && <Alert>{save.error.message}</Alert>}
      <TextField
        label="Signing secret"
        name="signingSecret"
        autoComplete="off"
        value={secret}
        error={invalid}
        onChange={(event) => setSecret(event.target.value)}
      />
      <Button type="submit" busy={save.isPending}>
        Save signing secret
      </Button>
    </form>
  );
}

/** The referral discounts, typed in dollars, sent as cents (Mindbody's rule). */
function DiscountsForm({ status }: { status: StripeMembersStatus }) {
  const save = useSaveStripeDiscounts();
  const {
    submit,
    field,
    formState: { isSubmitting },
  } = useContractForm<MindbodyDiscountsForm>(validateMindbodyDiscountsForm, {
    values: {
      discountOnReferral:
        status.discountOnReferralCents === null
          ? ''
          : centsToDollarText(status.discountOnReferralCents),
      discountForReferee:
        status.discountOnReferralCents === null
          ? ''
          : centsToDollarText(status.discountForRefereeCents),
    },
    trim: ['discountOnReferral', 'discountForReferee'],
    onSubmit: (values) => save.mutateAsync(mindbodyDiscountsFromForm(values)),
    onError: () => undefined,
  });
  return (
    <form className="mb-stripe-form" onSubmit={submit} noValidate>
      {save.isError && <Alert>{save.error.message}</Alert>}
      {save.isSuccess && <Alert tone="success">Discounts saved.</Alert>}
      <TextField
        label="Discount on referral ($)"
        inputMode="decimal"
        hint="Taken off a member's bill for each friend they referred"
        {...field('discountOnReferral')}
      />
      <TextField
        label="Discount for referee ($)"
        inputMode="decimal"
        hint="Taken off the referred friend's own bill (optional)"
        {...field('discountForReferee')}
      />
      <Button type="submit" busy={isSubmitting}>
        Save discounts
      </Button>
    </form>
  );
}

/** The bills a sync changes, each in its subscription's currency; confirming writes exactly those. */
function SyncPanel({ status }: { status: StripeMembersStatus }) {
  const [open, setOpen] = useState(false);
  const [automatic, setAutomatic] = useState(status.automaticSync);
  const preview = useStripePreview(open);
  const sync = useStripeSync();
  const formats = useLocaleFormats();
  const count = useCount();
  const money = (cents: number, currency: string) =>
    memberBillFormats(formats.business, currency).money(cents);
  const running = status.run?.state === 'running';
  if (!open)
    return (
      <Button
        onClick={() => {
          sync.reset();
          setOpen(true);
        }}
      >
        Review bill changes
      </Button>
    );
  if (preview.isPending) return <Spinner />;
  if (preview.isError) return <Alert>{preview.error.message}</Alert>;
  const changes = preview.data;
  return (
    <div>
      {sync.isError && <Alert>{sync.error.message}</Alert>}
      {sync.isSuccess && <StripeRunStatus run={status.run} kind="sync" />}
      {running ? null : changes.total === 0 ? (
        <p>No bill changes: every subscription already bills what it should.</p>
      ) : (
        <>
          <p>{count(changes.total, 'member’s bill', 'members’ bills')} will change on Stripe:</p>
          <ul className="mb-stripe-bills" aria-label="Bills that change">
            {changes.items.map((change) => (
              <li key={change.memberId}>
                <span>{change.name}</span>{' '}
                <span>
                  {money(change.currentCents, change.currency)} →{' '}
                  <strong>{money(change.newCents, change.currency)}</strong>
                </span>
              </li>
            ))}
          </ul>
          <label className="mb-stripe-check">
            <input
              type="checkbox"
              checked={automatic}
              onChange={(event) => setAutomatic(event.target.checked)}
            />
            <span>
              From now on, write the changes Stripe's webhooks bring (a friend's first paid invoice,
              a cancelled subscription) without asking me, while these discounts stay
            </span>
          </label>
          <Button
            busy={sync.isPending || running}
            onClick={() => sync.mutate({ confirm: changes.fingerprint, automatic })}
          >
            Confirm and write {count(changes.total, 'bill', 'bills')}
          </Button>
        </>
      )}
    </div>
  );
}

/**
 * Stripe as the gym's member billing (issue 32, docs/stripe.md#member-billing): connect a
 * restricted key, save the discounts, import the customers with active subscriptions, review the
 * bills a sync changes and confirm them, or remove Grove's discounts and disconnect.
 */
export function StripeSetupPage() {
  const status = useStripeMembersStatus();
  const importMembers = useImportStripeMembers();
  const remove = useRemoveStripe();
  const count = useCount();
  if (status.isPending) return <Spinner />;
  if (status.isError) return <Alert>{status.error.message}</Alert>;
  const current = status.data;
  return (
    <div className="mb-stripe-page">
      <PageHeader
        title="Stripe Billing"
        description="Referral discounts on your members' real Stripe subscriptions."
      />
      {remove.isSuccess && (
        <Alert tone="success">
          Disconnected: {count(remove.data.discountsRemoved, 'discount', 'discounts')} removed from
          your members' subscriptions.
        </Alert>
      )}
      {!current.connected ? (
        <Card>
          <ConnectForm />
        </Card>
      ) : (
        <>
          <Card>
            <p>Connected with the key ending in {current.keyLast4}.</p>
            {importMembers.isError && <Alert>{importMembers.error.message}</Alert>}
            <StripeRunStatus run={current.run} kind="import" />
            <Button
              busy={importMembers.isPending || current.run?.state === 'running'}
              onClick={() => importMembers.mutate()}
            >
              Import members
            </Button>
          </Card>
          <Card>
            <WebhookForm status={current} />
          </Card>
          <Card>
            <DiscountsForm status={current} />
          </Card>
          {current.discountOnReferralCents !== null && (
            <Card>
              {current.pendingBillsSince && (
                <Alert tone="info">
                  Stripe reported changes that move members&apos; bills: review them before they are
                  written.
                </Alert>
              )}
              <SyncPanel status={current} />
            </Card>
          )}
          <Card>
            <CreditsPanel />
          </Card>
          <Card>
            {remove.isError && <Alert>{remove.error.message}</Alert>}
            <Button variant="secondary" busy={remove.isPending} onClick={() => remove.mutate()}>
              Remove Grove's discounts and disconnect
            </Button>
          </Card>
        </>
      )}
    </div>
  );
}
