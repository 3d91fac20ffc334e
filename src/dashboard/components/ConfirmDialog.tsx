/** A modal confirmation (the native <dialog>: focus trapped, Escape cancels; Cancel has the focus first, so Enter never confirms by accident). */
import { type ReactNode, useEffect, useRef } from 'react';

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger,
  pending,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first button (the dangerous one) unless told: React's autoFocus
      // writes no attribute, so the focus is put on Cancel here
      cancel.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onCancel={(e) => (e.preventDefault(), onCancel())}>
      <h2 id="confirm-title" style={{ marginTop: 0 }}>
        {title}
      </h2>
      {children}
      <div className="actions">
        <button type="button" className={danger ? 'danger' : undefined} onClick={onConfirm} disabled={pending}>
          {pending ? 'Working…' : confirmLabel}
        </button>
        <button ref={cancel} type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
