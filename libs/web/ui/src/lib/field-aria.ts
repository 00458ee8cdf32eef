import { useId, type ReactNode } from 'react';

/**
 * Ids and ARIA attributes shared by Grove's labelled controls (`TextField`, `TextArea`): the
 * control's id (the given one or a generated one), the ids of its error and hint, and the props
 * that announce them (`aria-invalid` while there is an error, `aria-describedby` → error + hint).
 */
export function useFieldAria(id: string | undefined, error: string | undefined, hint: ReactNode) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return {
    errorId,
    hintId,
    controlProps: {
      id: inputId,
      'aria-invalid': error ? (true as const) : undefined,
      'aria-describedby': describedBy || undefined,
    },
  };
}
