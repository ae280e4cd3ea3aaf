'use client';
/**
 * A search box that lists codes as the clinician types (ARIA 1.2 combobox with a listbox popup): arrows move
 * through the options, Enter picks one, Escape closes the list. Picking sets the code; typing again clears it,
 * so the form never sends a code for words it does not name.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { controlClass } from '@/components/ui/Field';
import { cn } from '@/components/ui';
import type { CodeOption } from './use-structured-edit';

export interface CodeComboboxProps {
  label: string;
  /** The text in the box (a picked option's label, or what was typed). */
  text: string;
  onText: (text: string) => void;
  /** The picked option, or null while the text is the clinician's own. */
  picked: CodeOption | null;
  onPick: (option: CodeOption | null) => void;
  search: (q: string) => Promise<CodeOption[]>;
  hint?: string;
  required?: boolean;
}

export function CodeCombobox({ label, text, onText, picked, onPick, search, hint, required }: CodeComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const [options, setOptions] = useState<CodeOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [failed, setFailed] = useState(false);
  const query = useRef('');

  useEffect(() => {
    const q = text.trim();
    if (!open || q.length < 2) return;
    query.current = q;
    // Search once typing pauses; an answer to an older query is dropped.
    const t = setTimeout(() => {
      search(q).then(
        (found) => {
          if (query.current !== q) return;
          setFailed(false);
          setOptions(found);
          setActive(found.length > 0 ? 0 : -1);
        },
        () => query.current === q && setFailed(true),
      );
    }, 200);
    return () => clearTimeout(t);
  }, [text, open, search]);

  function choose(o: CodeOption) {
    onPick(o);
    onText(o.label);
    setOpen(false);
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && open && active >= 0 && options[active]) {
      e.preventDefault();
      choose(options[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  }

  const shown = open && text.trim().length >= 2;
  const status = picked ? `Selected: ${picked.detail ?? picked.value}` : failed ? 'The search failed; try again.' : (hint ?? 'Type at least two letters to search.');
  return (
    <div className="relative flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
        {required ? <span aria-hidden="true" className="text-red-700"> *</span> : null}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        required={required}
        aria-autocomplete="list"
        aria-expanded={shown && options.length > 0}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={hintId}
        className={controlClass(false)}
        value={text}
        onChange={(e) => {
          onText(e.target.value);
          if (picked) onPick(null);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <p id={hintId} className="text-xs text-slate-600" aria-live="polite">
        {status}
      </p>
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label} matches`}
        hidden={!shown || options.length === 0}
        className="absolute top-16 z-10 w-full rounded-md border border-slate-300 bg-white shadow-lg"
      >
        {options.map((o, i) => (
          <li
            key={`${o.value}-${i}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            // mousedown, not click: the input's blur would close the list before a click lands.
            onMouseDown={(e) => {
              e.preventDefault();
              choose(o);
            }}
            className={cn('cursor-pointer px-3 py-1.5 text-sm', i === active ? 'bg-blue-100 text-slate-900' : 'text-slate-800')}
          >
            <span>{o.label}</span>
            {o.detail ? <span className="ml-2 text-xs text-slate-600">{o.detail}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
