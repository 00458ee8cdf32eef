import type { MemberRow } from '@grove/contracts';
import { useRemoveTree } from './api/members';
import { Alert, Button, Modal } from '@grove/web-ui';

/** Asks before removing a tree (docs/product.md#states: it also leaves the tree it is a branch of). */
export function RemoveTreeModal({
  tree,
  onClose,
}: {
  tree: MemberRow | null;
  onClose: () => void;
}) {
  const remove = useRemoveTree();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal open={tree !== null} title={tree ? `Remove ${tree.memberName}?` : ''} onClose={close}>
      {tree && (
        <>
          <p>
            {tree.memberName} will be removed from Grove
            {tree.referringMemberId ? ' and from the tree they are a branch of' : ''}.
            {tree.branches > 0
              ? tree.branches === 1
                ? ' Their 1 branch stays a tree.'
                : ` Their ${tree.branches} branches stay as trees.`
              : ''}
          </p>
          {remove.isError && <Alert>{remove.error.message}</Alert>}
          <div className="dash-confirm">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => remove.mutate(tree.id, { onSuccess: close })}
            >
              Remove Tree
            </Button>
          </div>
        </>
      )}
    </Modal>
  );
}
