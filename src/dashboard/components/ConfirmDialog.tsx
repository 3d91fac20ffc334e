/** A modal confirmation (the native <dialog>: focus trapped, Escape cancels). */
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
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
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
        <button type="button" className="secondary" onClick={onCancel} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
