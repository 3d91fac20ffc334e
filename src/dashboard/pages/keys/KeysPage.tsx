/**
 * API keys: the list (masked prefix, created, last used, revoked), creation with a name (the
 * full key shown once with a copy button), renaming in place, revocation with confirmation
 * (Cancel focused first), and the 10-key limit.
 */
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from '../../app/hooks';
import { useSession } from '../../app/session';
import { CopyButton } from '../../components/CopyButton';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field, Page } from '../../components/Page';
import { Empty, FormError, QueryState } from '../../components/states';
import { CreateKeyDocument, KeysDocument, RevokeKeyDocument, type CreateKeyMutation } from '../../gql/graphql';
import { KeyRow, type Key } from './KeyRow';
import './keys.css';

/** The spec: an account holds at most 10 active keys. */
export const MAX_ACTIVE_KEYS = 10;


export default function KeysPage() {
  const keys = useQuery(KeysDocument);
  const revoke = useMutation(RevokeKeyDocument);
  const [created, setCreated] = useState<CreateKeyMutation['createKey'] | null>(null);
  const [toRevoke, setToRevoke] = useState<Key | null>(null);
  const active = keys.data?.keys.filter((k) => !k.revoked).length ?? 0;
  const atLimit = active >= MAX_ACTIVE_KEYS;

  async function confirmRevoke() {
    if (!toRevoke) return;
    const answer = await revoke.run({ id: toRevoke.id });
    if (answer) {
      setToRevoke(null);
      keys.reload();
    }
  }

  return (
    <Page title="API keys" lead={<>Send a key as <code>Authorization: Bearer sk-…</code> with each API call. An account holds at most {MAX_ACTIVE_KEYS} active keys.</>}>
      {created && <NewKeyReveal created={created} onStored={() => setCreated(null)} />}

      <CreateKeySection
        atLimit={atLimit}
        onCreated={(key) => {
          setCreated(key);
          keys.reload();
        }}
      />

      <section aria-labelledby="list-title">
        <h2 id="list-title">Your keys {keys.data && <span className="muted small">({active} active of {MAX_ACTIVE_KEYS})</span>}</h2>
        <QueryState result={keys} loadingLabel="Loading your keys…">
          {(data) =>
            data.keys.length === 0 ? (
              <Empty title="No keys yet">
                <p>Create a key above to call the API or connect an AI agent.</p>
              </Empty>
            ) : (
              <KeysTable keys={data.keys} onRevoke={(k) => (revoke.reset(), setToRevoke(k))} onRenamed={keys.reload} />
            )
          }
        </QueryState>
      </section>

      <ConfirmDialog
        open={toRevoke !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        danger
        pending={revoke.pending}
        onConfirm={confirmRevoke}
        onCancel={() => setToRevoke(null)}
      >
        <p>
          “{toRevoke?.name}” (<code>{toRevoke?.key_prefix}</code>) stops working at once. Programs and agents that use it will get 401 answers. This cannot be undone.
        </p>
        <FormError error={revoke.error} />
      </ConfirmDialog>
    </Page>
  );
}

/** The key just created, shown once in full with a copy button. */
function NewKeyReveal({ created, onStored }: { created: CreateKeyMutation['createKey']; onStored(): void }) {
  return (
    <section className="success" aria-labelledby="new-key-title">
      <h2 id="new-key-title" style={{ marginTop: 0 }}>
        Your new key “{created.name}”
      </h2>
      <p>
        <strong>Copy it now: you will not see it again.</strong> Only its prefix is kept for the list below.
      </p>
      <div className="key-reveal">
        <code data-testid="new-key">{created.key}</code>
        <CopyButton text={created.key} label="Copy key" />
      </div>
      <div className="actions">
        <button type="button" className="secondary" onClick={onStored}>
          I have stored it
        </button>
        <Link to="/connect">Use it with an AI agent</Link>
      </div>
    </section>
  );
}

/** The account's keys: masked prefix, dates, status, rename, and revoke for the active ones. */
function KeysTable({ keys, onRevoke, onRenamed }: { keys: Key[]; onRevoke(key: Key): void; onRenamed(): void }) {
  return (
    <div className="table-wrap">
      <table className="responsive keys-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <KeyRow key={k.id} apiKey={k} onRevoke={() => onRevoke(k)} onRenamed={onRenamed} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Creating a key with a name; at the limit, why not (and a warning while the e-mail is unverified). */
function CreateKeySection({ atLimit, onCreated }: { atLimit: boolean; onCreated(created: CreateKeyMutation['createKey']): void }) {
  const { me } = useSession();
  const create = useMutation(CreateKeyDocument);
  const [name, setName] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const answer = await create.run({ name: name.trim() || null });
    if (answer) {
      onCreated(answer.createKey);
      setName('');
    }
  }

  return (
    <section className="card" aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      {me && !me.user.email_verified && (
        <p className="notice" data-testid="unverified-key-notice">
          Your e-mail address is not verified yet: keys you create now are revoked when it is, since keys made before the address is proven could belong to
          someone else. <Link to="/verify-email">Verify it</Link> first, then create the keys you keep.
        </p>
      )}
      {atLimit ? (
        <p className="notice" role="status">
          You have {MAX_ACTIVE_KEYS} active keys, the most an account can hold. Revoke a key you no longer use to create another.
        </p>
      ) : (
        <form onSubmit={submit} className="inline-form">
          <Field id="key-name" label="Name" hint="So you recognise it later, e.g. the machine or agent that uses it (up to 100 characters).">
            <input id="key-name" type="text" maxLength={100} value={name} placeholder="Default" onChange={(e) => setName(e.target.value)} aria-describedby="key-name-hint" />
          </Field>
          <button type="submit" disabled={create.pending}>
            {create.pending ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}
      <FormError error={create.error} />
    </section>
  );
}
