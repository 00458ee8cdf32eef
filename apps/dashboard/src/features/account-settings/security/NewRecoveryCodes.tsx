import { useState } from 'react';
import { RecoveryCodes } from '@grove/web-ui';
import { ProofForm } from './ProofForm';
import { useReplaceRecoveryCodes } from './api/second-factor';

/**
 * 'New recovery codes' (docs/product.md#second-factor): with a code or the password, 10 new
 * codes replace every earlier one and are shown once.
 * @param left unused recovery codes now
 */
export function NewRecoveryCodes({ left }: { left: number }) {
  const replace = useReplaceRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes)
    return (
      <section className="dash-security__section">
        <RecoveryCodes
          codes={codes}
          title="Your new recovery codes are ready. The old ones no longer work."
          onDone={() => setCodes(null)}
        />
      </section>
    );
  return (
    <section className="dash-security__section" aria-labelledby="dash-recovery-title">
      <h3 id="dash-recovery-title" className="dash-security__subtitle">
        Recovery codes
      </h3>
      <p className="g-muted dash-security__hint">
        {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`} New ones replace
        every earlier code.
      </p>
      <ProofForm
        label="To get new codes, enter a code, a recovery code or your password"
        action="New recovery codes"
        busy={replace.isPending}
        onProof={async (proof) => setCodes((await replace.mutateAsync(proof)).recoveryCodes)}
      />
    </section>
  );
}
