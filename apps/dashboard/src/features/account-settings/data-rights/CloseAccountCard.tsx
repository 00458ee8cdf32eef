import { useState, type FormEvent } from 'react';
import { ACCOUNT_CLOSURE_DAYS } from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { Alert, Button, Card, Modal, Spinner, TextField } from '@grove/web-ui';
import { useCancelClosure, useClosure, useCloseAccount } from './api/data-rights';
import './data-rights.css';

/**
 * Account Settings → 'Close your account' (docs/product.md#data-rights; owners only): the owner
 * confirms with their password; everything is deleted 30 days later, and until then the card
 * says when and offers 'Cancel closing'.
 */
export function CloseAccountCard() {
  const closure = useClosure();
  const cancel = useCancelClosure();
  const [asking, setAsking] = useState(false);
  const formats = useLocaleFormats();
  const closingAt = closure.data?.closingAt ?? null;
  return (
    <Card
      className="dash-account__card dash-rights"
      aria-labelledby="close-title"
      id="close-account"
    >
      <h2 className="dash-account__title" id="close-title">
        Close your account
      </h2>
      {closure.isPending ? (
        <Spinner label="Loading…" />
      ) : closure.isError ? (
        <Alert>{closure.error.message}</Alert>
      ) : closingAt ? (
        <>
          <Alert tone="info">
            Your account is closing: everything is deleted on{' '}
            <strong>{formats.date(closingAt)}</strong>. Your team is signed out until you cancel.
          </Alert>
          {cancel.error && <Alert>{cancel.error.message}</Alert>}
          <Button onClick={() => cancel.mutate()} busy={cancel.isPending}>
            Cancel closing
          </Button>
        </>
      ) : (
        <>
          <p className="dash-account__lead">
            Closing deletes everything of your business {ACCOUNT_CLOSURE_DAYS} days later: members,
            branches, prices, prospects, settings and staff accounts. Until then you can sign in and
            cancel. Grove's subscription stops renewing. Export your data first if you want a copy.
          </p>
          <Button variant="danger" onClick={() => setAsking(true)}>
            Close account…
          </Button>
        </>
      )}
      <CloseAccountModal open={asking} onClose={() => setAsking(false)} />
    </Card>
  );
}

function CloseAccountModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const close = useCloseAccount();
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    close.mutate(password, { onSuccess: onClose });
  };
  return (
    <Modal open={open} title="Close your account?" onClose={onClose}>
      <form onSubmit={submit} className="dash-rights__form">
        <p>
          Everything of your business is deleted in {ACCOUNT_CLOSURE_DAYS} days. Enter your password
          to confirm.
        </p>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={close.error?.message}
        />
        <div className="dash-rights__actions">
          <Button type="button" variant="secondary" onClick={onClose}>
            Keep my account
          </Button>
          <Button type="submit" variant="danger" busy={close.isPending} disabled={!password}>
            Close account
          </Button>
        </div>
      </form>
    </Modal>
  );
}
