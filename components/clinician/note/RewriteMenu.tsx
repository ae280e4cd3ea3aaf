'use client';
import { useEffect, useRef, type RefObject } from 'react';
import { Button } from '@/components/ui';
import { INSTRUCTIONS, type Instruction } from './rewrite-instructions';

/** "Rewrite selection…" and its menu of instructions, keyboard-navigable; Escape returns to the text. */
export function RewriteMenu(props: {
  open: boolean;
  setOpen: (open: boolean | ((o: boolean) => boolean)) => void;
  disabled: boolean;
  pending: boolean;
  onPick: (instruction: Instruction) => void;
  textarea: RefObject<HTMLTextAreaElement | null>;
}) {
  const { open, setOpen, disabled, pending, onPick, textarea } = props;
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [open]);

  return (
    <div className="relative">
      <Button size="sm" variant="secondary" disabled={disabled || pending} loading={pending} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((m) => !m)} aria-keyshortcuts="Alt+W">
        Rewrite selection…
      </Button>
      {open ? (
        <div
          ref={menuRef}
          role="menu"
          aria-label="Rewrite the selection"
          className="absolute left-0 z-10 mt-1 flex w-48 flex-col rounded-md border border-slate-200 bg-white py-1 shadow-lg"
          onKeyDown={(e) => {
            const items = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? [])];
            const i = items.indexOf(document.activeElement as HTMLButtonElement);
            if (e.key === 'Escape') {
              setOpen(false);
              textarea.current?.focus();
            } else if (e.key === 'ArrowDown') {
              e.preventDefault();
              items[(i + 1) % items.length]?.focus();
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              items[(i - 1 + items.length) % items.length]?.focus();
            }
          }}
        >
          {INSTRUCTIONS.map((ins) => (
            <button
              key={ins.value}
              role="menuitem"
              type="button"
              className="px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-blue-50 focus:outline-none"
              onClick={() => {
                setOpen(false);
                onPick(ins.value);
              }}
            >
              {ins.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
