/** The team page's join link: copy, rotate, disable. */
import { useMutation } from '../../app/hooks';
import { CopyButton } from '../../components/CopyButton';
import { formatDate } from '../../components/format';
import { FormError } from '../../components/states';
import { DisableJoinLinkDocument, RotateJoinLinkDocument } from '../../gql/graphql';
import type { Team } from './team-types';

export function JoinLinkSection({ team, reload }: { team: Team; reload(): void }) {
  const rotate = useMutation(RotateJoinLinkDocument);
  const disable = useMutation(DisableJoinLinkDocument);
  const link = team.join_link;
  return (
    <section className="card" aria-labelledby="link-title">
      <h2 id="link-title">Join link</h2>
      <p className="muted">Anyone with the link who signs in can join while seats are free. Rotate it to stop the old link working.</p>
      {link ? (
        <>
          <div className="key-reveal">
            <code data-testid="join-link">{link.url}</code>
            <CopyButton text={link.url} label="Copy link" />
          </div>
          <p className="muted small">Created {formatDate(link.created_at)}.</p>
        </>
      ) : (
        <p>The join link is off.</p>
      )}
      <FormError error={rotate.error ?? disable.error} />
      <div className="actions">
        <button type="button" className="secondary" disabled={rotate.pending} onClick={async () => (await rotate.run({})) && reload()}>
          {link ? 'Rotate link' : 'Create link'}
        </button>
        {link && (
          <button type="button" className="secondary" disabled={disable.pending} onClick={async () => (await disable.run({})) && reload()}>
            Disable link
          </button>
        )}
      </div>
    </section>
  );
}
