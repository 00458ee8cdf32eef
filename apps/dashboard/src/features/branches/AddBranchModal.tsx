import { useState } from 'react';
import { MESSAGES, type MemberRow } from '@grove/contracts';
import { useAddBranch, useRemoveBranch } from './api/members';
import { Alert, Button, Modal } from '@grove/web-ui';
import { MemberForm } from '../../components/member-form/MemberForm';
import { MemberStatusBadge } from '../../components/member-status/MemberStatusBadge';

/**
 * 'Add a New Branch to {member}' (docs/product.md#branches): explains that the member gets a discount and that the
 * branch also becomes a new tree, lists the current branches (each removable, after the owner
 * confirms in its row: docs/product.md#branches, issue 25) or 'No branches yet', then the member
 * form.
 */
export function AddBranchModal({ tree, onClose }: { tree: MemberRow | null; onClose: () => void }) {
  const addBranch = useAddBranch();
  const removeBranch = useRemoveBranch();
  /** The branch whose removal is being confirmed. */
  const [confirming, setConfirming] = useState<string | null>(null);
  const close = () => {
    setConfirming(null);
    removeBranch.reset();
    onClose();
  };
  return (
    <Modal
      open={tree !== null}
      title={tree ? `Add a New Branch to ${tree.memberName}` : ''}
      onClose={close}
    >
      {tree && (
        <>
          <p className="g-muted dash-note">
            A discount will be applied to {tree.memberName}’s membership for this branch, and the
            branch is also added as a new tree.
          </p>
          <h3 className="dash-subtitle">Current branches</h3>
          {tree.branchDetails.length === 0 ? (
            <p className="g-muted">{MESSAGES.noBranchesYet}</p>
          ) : (
            <ul className="dash-branch-list">
              {tree.branchDetails.map((branch) =>
                confirming === branch.id ? (
                  <li key={branch.id} className="dash-branch-list__confirm">
                    <p>
                      Remove {branch.branchName} as {tree.memberName}’s branch?{' '}
                      {branch.status === 'Active'
                        ? `${tree.memberName}’s price goes back up. `
                        : ''}
                      {branch.branchName} stays as a tree.
                    </p>
                    <div className="dash-branch-list__actions">
                      <Button size="sm" variant="secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        busy={removeBranch.isPending}
                        onClick={() =>
                          removeBranch.mutate(
                            { treeId: tree.id, branchId: branch.id },
                            { onSuccess: () => setConfirming(null) },
                          )
                        }
                      >
                        Remove branch
                      </Button>
                    </div>
                  </li>
                ) : (
                  <li key={branch.id}>
                    <span>
                      {branch.branchName} <span className="g-muted">· {branch.branchEmail}</span>{' '}
                      <MemberStatusBadge status={branch.status} hideActive />
                    </span>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove branch ${branch.branchName}`}
                      onClick={() => {
                        removeBranch.reset();
                        setConfirming(branch.id);
                      }}
                    >
                      Remove
                    </Button>
                  </li>
                ),
              )}
            </ul>
          )}
          {removeBranch.isError && <Alert>{removeBranch.error.message}</Alert>}
          <MemberForm
            key={tree.id}
            failurePrefix={MESSAGES.addBranchFailedPrefix}
            onSubmit={async (values) => {
              await addBranch.mutateAsync({ ...values, treeId: tree.id });
              close();
            }}
          />
        </>
      )}
    </Modal>
  );
}
