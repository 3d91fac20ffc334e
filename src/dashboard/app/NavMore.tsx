/**
 * The navigation's overflow: past MAX_VISIBLE items, the last ones go into a "More" disclosure
 * (a button with aria-expanded and a list of links: the disclosure pattern for site navigation),
 * so the top bar stays on one line at 1366 px. Escape closes it and gives the focus back to the
 * button; a click elsewhere, leaving it with Tab, or following a link closes it too. On a phone
 * (the column menu) the same links are listed inline instead.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import type { NavItem } from './types';

/** The most items shown in a row; with more, the first MAX_VISIBLE - 1 stay and the rest are under More. */
export const MAX_VISIBLE = 9;

export function splitNav(items: NavItem[]): { visible: NavItem[]; overflow: NavItem[] } {
  if (items.length <= MAX_VISIBLE) return { visible: items, overflow: [] };
  return { visible: items.slice(0, MAX_VISIBLE - 1), overflow: items.slice(MAX_VISIBLE - 1) };
}

export function NavMore({ items }: { items: NavItem[] }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const button = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLLIElement>(null);
  const listId = useId();
  const here = items.some((i) => location.pathname === i.to || location.pathname.startsWith(`${i.to}/`));

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  return (
    <li
      className="nav-more"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(e) => !box.current?.contains(e.relatedTarget as Node | null) && setOpen(false)}
    >
      <button ref={button} type="button" className={`nav-more-button${here ? ' active' : ''}`} aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        More<span aria-hidden="true"> ▾</span>
      </button>
      <ul id={listId} className="nav-more-list" hidden={!open}>
        {items.map((i) => (
          <li key={i.to}>
            <NavLink to={i.to}>{i.label}</NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}
