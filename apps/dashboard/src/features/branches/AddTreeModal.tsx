import { centsToDollarText, MESSAGES, type MemberForm as MemberFormValues } from '@grove/contracts';
import { useCreateMember } from './api/members';
import { Modal, Spinner } from '@grove/web-ui';
import { MemberForm } from '../../components/member-form/MemberForm';
import { useMemberDefaults } from '../../components/member-defaults/member-defaults-api';

/**
 * 'Start Growing' (docs/product.md#branches): adds a new tree. Its price and discount start from
 * the business's defaults (Account Settings, docs/product.md#member-defaults), as real values the
 * owner may change; without defaults they start empty.
 */
export function AddTreeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateMember();
  // Read with the page (the modal is mounted closed), so the form opens with them.
  const defaults = useMemberDefaults();
  const start: Partial<MemberFormValues> = {};
  if (defaults.data?.membershipPriceCents != null)
    start.membershipPrice = centsToDollarText(defaults.data.membershipPriceCents);
  if (defaults.data?.discountCents != null)
    start.discount = centsToDollarText(defaults.data.discountCents);
  return (
    <Modal open={open} title="Start Growing" onClose={onClose}>
      {defaults.isPending ? (
        <Spinner label="Loading your defaults…" />
      ) : (
        <MemberForm
          defaultValues={start}
          failurePrefix={MESSAGES.addMemberFailedPrefix}
          onSubmit={async (values) => {
            await create.mutateAsync(values);
            onClose();
          }}
        />
      )}
    </Modal>
  );
}
