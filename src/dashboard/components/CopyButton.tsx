/** Copies a text to the clipboard and says so (the clipboard API, with a selection fallback). */
import { useState } from 'react';

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButton({ text, label = 'Copy', className }: { text: string; label?: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        className={className ?? 'secondary'}
        onClick={async () => {
          setState((await copyText(text)) ? 'copied' : 'failed');
          setTimeout(() => setState('idle'), 2500);
        }}
      >
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {state === 'copied' ? 'Copied to the clipboard' : state === 'failed' ? 'Could not copy; select the text and copy it by hand' : ''}
      </span>
    </>
  );
}
