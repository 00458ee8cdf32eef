import { RECOVERY_CODE_COUNT } from '@grove/contracts';
import { Alert } from './Alert';
import { Button } from './Button';
import './recovery-codes.css';

/**
 * Recovery codes, shown once (docs/product.md#second-factor): right after the first second
 * factor is set up (in Security, or an invitation accepted with a passkey), or after 'New
 * recovery codes'.
 * @param title what just happened ('Your authenticator app is on.')
 */
export function RecoveryCodes({
  codes,
  title,
  onDone,
}: {
  codes: string[];
  title: string;
  onDone: () => void;
}) {
  return (
    <div>
      <Alert tone="success">{title}</Alert>
      <p>
        Save these {RECOVERY_CODE_COUNT} recovery codes somewhere safe. Each one signs you in once
        if you lose your phone. They will not be shown again.
      </p>
      <ul className="g-recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <Button onClick={onDone}>I have saved them</Button>
    </div>
  );
}
