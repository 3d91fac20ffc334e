/** A page's frame: its heading (the focus target after navigation), an optional lead and actions. */
import type { ReactNode } from 'react';
import { useTitle } from '../app/hooks';

export function Page({ title, lead, actions, children }: { title: string; lead?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  useTitle(title);
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 tabIndex={-1} id="page-title">
            {title}
          </h1>
          {lead && <p className="lead">{lead}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </header>
      {children}
    </div>
  );
}

/** A labelled form field: label, control, hint and error tied together for screen readers. */
export function Field({ id, label, hint, error, children }: { id: string; label: ReactNode; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
