import { MESSAGES } from '@grove/contracts';
import { useCreateMember } from './api/members';
import { Modal } from '@grove/web-ui';
import { MemberForm } from '../../components/member-form/MemberForm';

/** 'Start Growing' (docs/product.md#branches): adds a new tree. */
export function AddTreeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateMember();
  return (
    <Modal open={open} title="Start Growing" onClose={onClose}>
      <MemberForm
        failurePrefix={MESSAGES.addMemberFailedPrefix}
        onSubmit={async (values) => {
          await create.mutateAsync(values);
          onClose();
        }}
      />
    </Modal>
  );
}
