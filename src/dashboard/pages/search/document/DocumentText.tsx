/**
 * The document's text as the API serves it: resolved citations link to the cited document (the
 * citator's offsets are positions in this very string), the pinpoint the page was opened for is
 * highlighted and scrolled to, and on a phone a long text starts folded behind "Show full text"
 * (the metadata above it stays in reach).
 */
import { type ReactNode, type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { locatePinpoint } from '../pinpoint';
import { previewEnd, segmentText, type Segment, type TextLink } from '../text-segments';

/** Characters of a folded text's preview. */
const PREVIEW_CHARS = 700;
/** Phones: the width under which the dashboard's layout is one column (styles.css). */
const NARROW = '(max-width: 759px)';
/** After the shell has focused the page heading on navigation (Shell.tsx, 50 ms), which scrolls to the top. */
const SCROLL_DELAY_MS = 150;

function renderRun(s: Segment): ReactNode {
  if (!s.link) return s.text;
  return (
    <Link key={s.start} to={s.link.to} className="cite-link" title={`Open ${s.link.citation}`}>
      {s.text}
    </Link>
  );
}

/** The runs, the highlighted ones (one contiguous stretch) inside one <mark>. */
function renderRuns(segments: Segment[], markRef: RefObject<HTMLElement | null>): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (!s.marked) {
      out.push(s.link ? renderRun(s) : <span key={s.start}>{s.text}</span>);
      continue;
    }
    const marked: Segment[] = [];
    while (i < segments.length && segments[i]!.marked) marked.push(segments[i++]!);
    i--;
    out.push(
      <mark key={`mark-${s.start}`} ref={markRef} className="pinpoint" data-testid="pinpoint">
        {marked.map((m) => (m.link ? renderRun(m) : <span key={m.start}>{m.text}</span>))}
      </mark>,
    );
  }
  return out;
}

export function DocumentText({ text, links, pinpoint }: { text: string; links: readonly TextLink[]; pinpoint: string | null }) {
  const bodyId = useId();
  const mark = useMemo(() => (pinpoint ? locatePinpoint(text, pinpoint) : null), [text, pinpoint]);
  const cut = previewEnd(text, PREVIEW_CHARS);
  const foldable = cut < text.length;
  // on a phone (as the page opened), a long text starts folded unless the page was opened to show a part of it
  const [narrow] = useState(() => window.matchMedia(NARROW).matches);
  const [expanded, setExpanded] = useState(() => !foldable || Boolean(mark) || !narrow);
  const segments = useMemo(() => segmentText(text, links, mark, expanded ? text.length : cut), [text, links, mark, expanded, cut]);
  const markRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!mark) return;
    const t = setTimeout(() => markRef.current?.scrollIntoView({ block: 'center' }), SCROLL_DELAY_MS);
    return () => clearTimeout(t);
  }, [mark]);

  return (
    <>
      {pinpoint &&
        (mark ? (
          <p className="small muted">
            Highlighted: <strong>{pinpoint}</strong>.
          </p>
        ) : (
          <p className="small" role="status">
            “{pinpoint}” was not found in this text; the whole text is shown.
          </p>
        ))}
      <div id={bodyId} className="doc-body" data-testid="document-text">
        {renderRuns(segments, markRef)}
        {!expanded && '…'}
      </div>
      {foldable && narrow && (
        <button type="button" className="secondary doc-toggle" aria-expanded={expanded} aria-controls={bodyId} onClick={() => setExpanded((e) => !e)}>
          {expanded ? 'Show less of the text' : 'Show full text'}
        </button>
      )}
    </>
  );
}
