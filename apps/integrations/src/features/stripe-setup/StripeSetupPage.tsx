import { useState, type FormEvent } from 'react';
import {
  STRIPE_MEMBER_PERMISSIONS,
  centsToDollarText,
  localeFormats,
  mindbodyDiscountsFromForm,
  validateMindbodyDiscountsForm,
  validateStripeMembersKey,
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
  useStripeMembersStatus,
  useStripePreview,
  useStripeSync,
  type StripeMembersStatus,
} from './api/stripe-members';
import './stripe-setup.css';

/** '1 bill' / '12 bills'. */
function count(n: number, one: string, many: string): string {
  return n === 1 ? `1 ${one}` : `${n.toLocaleString('en-AU')} ${many}`;
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
function SyncPanel() {
  const [open, setOpen] = useState(false);
  const preview = useStripePreview(open);
  const sync = useStripeSync();
  const formats = useLocaleFormats();
  const money = (cents: number, currency: string) =>
    localeFormats({ ...formats.business, currency: currency.toUpperCase() }).money(cents);
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
      {sync.isSuccess && (
        <Alert tone="success">{count(sync.data.billsWritten, 'bill', 'bills')} written.</Alert>
      )}
      {changes.total === 0 ? (
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
          <Button busy={sync.isPending} onClick={() => sync.mutate(changes.fingerprint)}>
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
            {importMembers.isSuccess && (
              <Alert tone="success">
                {count(importMembers.data.listed, 'active subscription', 'active subscriptions')}{' '}
                imported.
              </Alert>
            )}
            <Button busy={importMembers.isPending} onClick={() => importMembers.mutate()}>
              Import members
            </Button>
          </Card>
          <Card>
            <DiscountsForm status={current} />
          </Card>
          {current.discountOnReferralCents !== null && (
            <Card>
              <SyncPanel />
            </Card>
          )}
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
