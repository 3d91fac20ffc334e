/**
 * One key of the list: its name (renamed in place: the field takes the focus, Enter saves,
 * Escape or Cancel puts the name back, and the focus returns to Rename), masked prefix, dates,
 * status and the row's buttons.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { Answered } from '../../api/client';
import { useMutation } from '../../app/hooks';
import { formatDate, formatDateTime } from '../../components/format';
import { FormError } from '../../components/states';
import { RenameKeyDocument, type KeysQuery } from '../../gql/graphql';

export type Key = Answered<KeysQuery>['keys'][number];

export function KeyRow({ apiKey: k, onRevoke, onRenamed }: { apiKey: Key; onRevoke(): void; onRenamed(): void }) {
  const [editing, setEditing] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const reopened = useRef(false);

  useEffect(() => {
    // back on the Rename button after saving or cancelling (not on the first render)
    if (!editing && reopened.current) renameButton.current?.focus();
  }, [editing]);

  function done(saved: boolean) {
    reopened.current = true;
    setEditing(false);
    if (saved) onRenamed();
  }

  return (
    <tr>
      <td data-label="Name">{editing ? <RenameForm apiKey={k} onDone={done} /> : k.name}</td>
      <td data-label="Key">
        <code>{k.key_prefix}</code>
      </td>
      <td data-label="Created">{formatDate(k.created_at)}</td>
      <td data-label="Last used">{k.last_used_at === k.created_at ? 'never' : formatDateTime(k.last_used_at)}</td>
      <td data-label="Status">
        <span className={`badge ${k.revoked ? 'revoked' : 'active'}`}>{k.revoked ? 'revoked' : 'active'}</span>
      </td>
      <td data-label="Actions">
        <div className="row-actions">
          {!editing && (
            <button ref={renameButton} type="button" className="secondary" onClick={() => setEditing(true)} aria-label={`Rename key ${k.name} (${k.key_prefix})`}>
              Rename
            </button>
          )}
          {!k.revoked && (
            <button type="button" className="secondary" onClick={onRevoke} aria-label={`Revoke key ${k.name} (${k.key_prefix})`}>
              Revoke
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

/** The name field with Save and Cancel; an empty name is refused before asking the server (which refuses it too). */
function RenameForm({ apiKey: k, onDone }: { apiKey: Key; onDone(saved: boolean): void }) {
  const rename = useMutation(RenameKeyDocument);
  const [name, setName] = useState(k.name);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.select(), []);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (await rename.run({ id: k.id, name: name.trim() })) onDone(true);
  }

  const inputId = `rename-${k.id}`;
  return (
    <form className="rename-form" onSubmit={save} onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), onDone(false))} noValidate>
      <label htmlFor={inputId} className="visually-hidden">
        New name for {k.key_prefix}
      </label>
      <input id={inputId} ref={field} type="text" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!name.trim()} />
      <button type="submit" disabled={rename.pending || !name.trim()}>
        {rename.pending ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="secondary" onClick={() => onDone(false)}>
        Cancel
      </button>
      {!name.trim() && <p className="form-error">A name needs at least one character.</p>}
      <FormError error={rename.error} />
    </form>
  );
}
