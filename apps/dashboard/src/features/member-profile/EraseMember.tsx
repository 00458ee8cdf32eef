import { useState } from 'react';
import { ERASED_MEMBER_NAME, type MemberRow } from '@grove/contracts';
import { useRoleMay } from '@grove/web-data-access';
import { Alert, Button, Modal } from '@grove/web-ui';
import { useEraseMember } from './api/member-profile';

/** True once the member's personal data was erased on request. */
export function isErased(member: Pick<MemberRow, 'memberName' | 'memberEmail'>): boolean {
  return member.memberName === ERASED_MEMBER_NAME && member.memberEmail === '';
}

/**
 * 'Erase personal data…' on a member's profile (docs/product.md#data-rights; owners and
 * managers): a confirm dialog, then the name and email are gone for good while prices and
 * branches stay. Nothing for other roles, for a member Mindbody manages, or once erased.
 */
export function EraseMember({ member }: { member: MemberRow }) {
  const mayErase = useRoleMay('erase');
  const erase = useEraseMember(member.id);
  const [asking, setAsking] = useState(false);
  // Mindbody's members are erased in Mindbody; a Stripe-billed one here (its bill stays Stripe's).
  if (!mayErase || member.managedByIntegration === 'Mindbody' || isErased(member)) return null;
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setAsking(true)}>
        Erase personal data…
      </Button>
      <Modal
        open={asking}
        title={`Erase ${member.memberName}'s personal data?`}
        onClose={() => setAsking(false)}
      >
        <p>
          Do this when the member asks. Their name and email are removed for good and they show as “
          {ERASED_MEMBER_NAME}”. Their price, branches and price history stay, so every other
          member's price stays right. Adding their email again later asks you first.
        </p>
        {erase.error && <Alert>{erase.error.message}</Alert>}
        <div className="dash-confirm">
          <Button variant="secondary" onClick={() => setAsking(false)}>
            Keep
          </Button>
          <Button
            variant="danger"
            busy={erase.isPending}
            onClick={() => erase.mutate(undefined, { onSuccess: () => setAsking(false) })}
          >
            Erase personal data
          </Button>
        </div>
      </Modal>
    </>
  );
}
