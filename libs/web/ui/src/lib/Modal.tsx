import { useEffect, useId, useRef, type ReactNode } from 'react';
import './modal.css';

/** Props of {@link Modal}. */
export interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog on the native `<dialog>` element: focus moves inside, Escape and the close
 * button call `onClose`, and focus returns to the opener when it closes.
 */
export function Modal({ open, title, onClose, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="g-modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <div className="g-modal__panel">
          <div className="g-modal__header">
            <h2 id={titleId} className="g-modal__title">
              {title}
            </h2>
            <button type="button" className="g-modal__close" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </div>
          <div className="g-modal__body">{children}</div>
        </div>
      )}
    </dialog>
  );
}
