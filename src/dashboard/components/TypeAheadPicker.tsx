/**
 * A multi-value picker with type-ahead (the ARIA combobox pattern): typing filters the choices
 * (by value or label), arrow keys move through them, Enter or a click adds one; the chosen values
 * are listed with a Remove button each. `error` is shown in words under the field.
 */
import { type KeyboardEvent, useId, useState } from 'react';
import type { Choice } from './catalogue';

const SHOWN = 10;

/** The choices containing the typed text: exact matches first, then those starting with it, then the rest (each in catalogue order). */
function rank(choices: Choice[], needle: string): Choice[] {
  const score = (c: Choice) => {
    const [value, label] = [c.value.toLowerCase(), c.label.toLowerCase()];
    if (value === needle || label === needle) return 0;
    if (value.startsWith(needle) || label.startsWith(needle) || value.includes(`/${needle}`)) return 1;
    return value.includes(needle) || label.includes(needle) ? 2 : 3;
  };
  return choices.map((c) => ({ c, s: score(c) })).filter((x) => x.s < 3).sort((a, b) => a.s - b.s).map((x) => x.c);
}

export function TypeAheadPicker({ id, label, hint, choices, values, onChange, error, max = 100 }: {
  id: string;
  label: string;
  hint?: string;
  choices: Choice[];
  values: string[];
  onChange(values: string[]): void;
  error?: string;
  max?: number;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const needle = text.trim().toLowerCase();
  const matches = needle ? rank(choices.filter((c) => !values.includes(c.value)), needle).slice(0, SHOWN) : [];
  const expanded = open && matches.length > 0;
  const labelOf = (value: string) => choices.find((c) => c.value === value)?.label ?? value;

  function add(choice: Choice) {
    if (values.length < max) onChange([...values, choice.value]);
    setText('');
    setActive(0);
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' && matches.length > 0) (e.preventDefault(), setOpen(true), setActive((a) => (a + 1) % matches.length));
    else if (e.key === 'ArrowUp' && matches.length > 0) (e.preventDefault(), setActive((a) => (a - 1 + matches.length) % matches.length));
    else if (e.key === 'Enter' && expanded) (e.preventDefault(), add(matches[Math.min(active, matches.length - 1)]!));
    else if (e.key === 'Escape') setOpen(false);
  }

  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field typeahead">
      <label htmlFor={id}>{label}</label>
      <Chosen label={label} values={values} labelOf={labelOf} onChange={onChange} />
      <div className="typeahead-box">
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          value={text}
          placeholder="Type to search"
          onChange={(e) => (setText(e.target.value), setOpen(true), setActive(0))}
          onKeyDown={onKey}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onFocus={() => setOpen(true)}
        />
        <Suggestions id={listId} label={label} matches={matches} active={active} expanded={expanded} onPick={add} />
      </div>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The chosen values, each with a Remove button. */
function Chosen({ label, values, labelOf, onChange }: { label: string; values: string[]; labelOf(value: string): string; onChange(values: string[]): void }) {
  if (values.length === 0) return null;
  return (
    <ul className="chips" aria-label={`${label}: chosen`}>
      {values.map((v) => (
        <li key={v} className="chip">
          <span>{labelOf(v)}</span>
          <button type="button" className="link" aria-label={`Remove ${labelOf(v)}`} onClick={() => onChange(values.filter((x) => x !== v))}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The listbox of matching choices (the combobox points at the active one). */
function Suggestions({ id, label, matches, active, expanded, onPick }: { id: string; label: string; matches: Choice[]; active: number; expanded: boolean; onPick(choice: Choice): void }) {
  return (
    <ul id={id} role="listbox" aria-label={`${label}: suggestions`} className="typeahead-list" hidden={!expanded}>
      {matches.map((c, i) => (
        <li key={c.value} id={`${id}-${i}`} role="option" aria-selected={i === active} className={i === active ? 'active' : undefined} onMouseDown={(e) => (e.preventDefault(), onPick(c))}>
          {c.label}
        </li>
      ))}
    </ul>
  );
}
