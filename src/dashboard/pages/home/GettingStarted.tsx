/**
 * The getting-started checklist of the signed-in home: verify the address (with the send button),
 * create a key, make the first call (a copyable curl), connect an agent. Each step's state comes
 * from the server (`me.getting_started`, src/modules/accounts/getting-started.ts), so it
 * progresses as the person does each step, from any door.
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { auth } from '../../api/auth';
import { publicOrigin } from '../../app/config';
import { useAction } from '../../app/hooks';
import { CopyButton } from '../../components/CopyButton';
import { formatDateTime } from '../../components/format';
import { FormError } from '../../components/states';

export interface ChecklistState {
  verified: boolean;
  has_key: boolean;
  first_call_at?: string | null;
  agent_connected: boolean;
}

/** The first call: a search any corpus answers (§ 826 BGB), the key from the environment. */
export function firstCallCurl(origin: string): string {
  const body = JSON.stringify({ q: 'sittenwidrige vorsätzliche Schädigung', namespace: 'legislation', top_k: 3 });
  return `curl -X POST ${origin}/v1/search \\\n  -H "Authorization: Bearer $API_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}

function Step({ id, done, title, children }: { id: string; done: boolean; title: string; children: ReactNode }) {
  return (
    <li className={`step${done ? ' done' : ''}`} data-testid={`step-${id}`} data-done={done}>
      <h3>
        <span className="step-mark" aria-hidden="true">{done ? '✓' : '○'}</span> {title} <span className="step-state">{done ? 'Done' : 'To do'}</span>
      </h3>
      {children}
    </li>
  );
}

export function GettingStarted({ state, email, keyPrefix, onChange }: { state: ChecklistState; email: string; keyPrefix: string | null; onChange(): void }) {
  const send = useAction(auth.requestEmailVerification);
  const [sent, setSent] = useState<string | null>(null);
  const done = [state.verified, state.has_key, Boolean(state.first_call_at), state.agent_connected].filter(Boolean).length;
  const curl = firstCallCurl(publicOrigin());
  return (
    <section className="card" aria-labelledby="getting-started">
      <h2 id="getting-started">Getting started</h2>
      <p className="muted" data-testid="steps-done">{done} of 4 steps done.</p>
      <ol className="checklist">
        <Step id="verify" done={state.verified} title="Verify your e-mail address">
          {state.verified ? (
            <p className="muted small">{email} is verified.</p>
          ) : sent ? (
            <p role="status">{sent} Open the link in the mail sent to {email}, then come back here.</p>
          ) : (
            <>
              <p>We mailed a link to {email} when you registered. Opening it proves the address is yours (invites and account mail need it).</p>
              <FormError error={send.error} />
              <button type="button" disabled={send.pending} onClick={async () => setSent((await send.run())?.detail ?? null)}>
                Send the verification e-mail again
              </button>
            </>
          )}
        </Step>
        <Step id="key" done={state.has_key} title="Create an API key">
          {state.has_key ? (
            <p className="muted small">
              You have a key{keyPrefix ? <> (<code>{keyPrefix}…</code>)</> : null}. <Link to="/keys">Manage your keys</Link>
            </p>
          ) : (
            <p>
              A key authenticates your calls to the API and to MCP. <Link to="/keys">Create a key</Link>
            </p>
          )}
        </Step>
        <Step id="first-call" done={Boolean(state.first_call_at)} title="Make your first call">
          {state.first_call_at ? (
            <p className="muted small">Your first call was counted on {formatDateTime(state.first_call_at)}.</p>
          ) : (
            <p>
              Set <code>API_KEY</code> to your key{keyPrefix ? <> (the one starting <code>{keyPrefix}</code>)</> : null} and run, or <Link to="/search">search here</Link>:
            </p>
          )}
          <pre data-testid="first-call-curl" tabIndex={0} aria-label="The first call as a curl command">
            <code>{curl}</code>
          </pre>
          <CopyButton text={curl} label="Copy the command" />
        </Step>
        <Step id="agent" done={state.agent_connected} title="Connect an AI agent">
          {state.agent_connected ? (
            <p className="muted small">An agent is connected through OAuth. <Link to="/connect">See or revoke it</Link></p>
          ) : (
            <p>
              Give Claude, Cursor or VS Code the search tools over MCP. <Link to="/connect">Connect an agent</Link>
            </p>
          )}
        </Step>
      </ol>
      <button type="button" className="secondary" onClick={onChange}>
        Check again
      </button>
    </section>
  );
}
