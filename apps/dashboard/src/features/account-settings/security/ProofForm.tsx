import { useState } from 'react';
import { SECOND_FACTOR_MESSAGES, validateSecondFactorCode } from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, TextField } from '@grove/web-ui';

/** The field takes a code or the password: something must be typed. */
const validateProof = (input: { proof: string }) => ({
  proof: input.proof.trim() ? undefined : SECOND_FACTOR_MESSAGES.disableNeedsProof,
});

/**
 * A code (app or recovery) or the password before a factor changes ('Turn off', 'New recovery
 * codes'): a code's shape is sent as `{ code }`, anything else as `{ password }`; a refusal is
 * shown and the field cleared.
 */
export function ProofForm({
  label,
  action,
  busy,
  onProof,
}: {
  label: string;
  action: string;
  busy: boolean;
  onProof: (proof: { code: string } | { password: string }) => Promise<unknown>;
}) {
  const [error, setError] = useState<string | null>(null);
  const { submit, field, setValue } = useContractForm<{ proof: string }>(validateProof, {
    defaultValues: { proof: '' },
    onSubmit: async ({ proof }) => {
      setError(null);
      const isCode = validateSecondFactorCode(proof) === null;
      await onProof(isCode ? { code: proof.trim() } : { password: proof });
    },
    onError: (failure) => {
      setValue('proof', '');
      setError(failure instanceof Error ? failure.message : String(failure));
    },
  });
  return (
    <>
      {error && <Alert>{error}</Alert>}
      <form onSubmit={submit} noValidate className="dash-security__form">
        <TextField label={label} type="password" autoComplete="off" {...field('proof')} />
        <Button type="submit" variant="secondary" busy={busy}>
          {action}
        </Button>
      </form>
    </>
  );
}
