import { useState } from 'react';
import {
  centsToDollarText,
  MESSAGES,
  referredByWaitsMessage,
  type MemberForm as MemberFormValues,
} from '@grove/contracts';
import { useCreateMember } from './api/members';
import { Modal, Spinner } from '@grove/web-ui';
import { MemberForm } from '../../components/member-form/MemberForm';
import { useMemberDefaults } from '../../components/member-defaults/member-defaults-api';
import { MemberPicker, type PickedReferrer } from './MemberPicker';

const NO_REFERRER: PickedReferrer = { member: null, text: '' };

/**
 * 'Start Growing' (docs/product.md#branches): adds a new tree. Its price and discount start from
 * the business's defaults (Account Settings, docs/product.md#member-defaults), as real values the
 * owner may change; without defaults they start empty. 'Referred by (optional)' (issue 33 item 4)
 * picks the member who referred them (the new member becomes their branch), or keeps a name that
 * matches no member, which waits in Referrals to match (docs/product.md#referrals-to-match).
 */
export function AddTreeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateMember();
  const [referrer, setReferrer] = useState<PickedReferrer>(NO_REFERRER);
  const close = () => {
    setReferrer(NO_REFERRER);
    onClose();
  };
  // Read with the page (the modal is mounted closed), so the form opens with them.
  const defaults = useMemberDefaults();
  const start: Partial<MemberFormValues> = {};
  if (defaults.data?.membershipPriceCents != null)
    start.membershipPrice = centsToDollarText(defaults.data.membershipPriceCents);
  if (defaults.data?.discountCents != null)
    start.discount = centsToDollarText(defaults.data.discountCents);
  return (
    <Modal open={open} title="Start Growing" onClose={close}>
      {defaults.isPending ? (
        <Spinner label="Loading your defaults…" />
      ) : (
        <MemberForm
          defaultValues={start}
          failurePrefix={MESSAGES.addMemberFailedPrefix}
          onSubmit={async (values) => {
            await create.mutateAsync({
              ...values,
              ...(referrer.member
                ? { referringMemberId: referrer.member.id }
                : referrer.text
                  ? { referredByNote: referrer.text }
                  : {}),
            });
            close();
          }}
        >
          <MemberPicker
            label="Referred by (optional)"
            value={referrer}
            onChange={setReferrer}
            hint="Type part of the name or email of the member who sent them."
            unmatchedHint={(text) => referredByWaitsMessage(text)}
          />
        </MemberForm>
      )}
    </Modal>
  );
}
