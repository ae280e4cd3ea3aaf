'use client';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { Button, Dialog } from '@/components/ui';
import { SHORTCUTS, isAlt } from './shortcuts';

export function AppHeader({ name, signOut }: { name: string; signOut: () => Promise<void> }) {
  const pathname = usePathname();
  const router = useRouter();
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
      if (isAlt(e, 'N')) {
        e.preventDefault();
        router.push('/visits/new');
      } else if (e.key === '?' && !typing) {
        e.preventDefault();
        setHelp(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [router]);
  const link = (href: string, label: string, exact = true) => {
    const active = exact ? pathname === href : pathname.startsWith(href);
    return (
      <Link
        href={href}
        aria-current={active ? 'page' : undefined}
        className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700 ${active ? 'bg-blue-50 text-blue-900' : 'text-slate-800 hover:bg-slate-100'}`}
      >
        {label}
      </Link>
    );
  };
  return (
    <header className="border-b border-slate-200 bg-white print:hidden">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-2 px-4 py-2">
        <Link href="/visits" className="mr-2 text-base font-semibold text-slate-900">
          Ambient
        </Link>
        <nav aria-label="Clinician" className="flex gap-1">
          {link('/visits', "Today's visits")}
          {link('/visits/new', 'New visit')}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <Button variant="ghost" size="sm" onClick={() => setHelp(true)} aria-haspopup="dialog">
            Keyboard shortcuts
          </Button>
          <span className="hidden text-sm text-slate-700 sm:inline" data-testid="signed-in-as">
            {name}
          </span>
          <form action={signOut}>
            <Button type="submit" variant="secondary" size="sm">
              Sign out
            </Button>
          </form>
        </div>
      </div>
      <Dialog open={help} onClose={() => setHelp(false)} title="Keyboard shortcuts" footer={<Button onClick={() => setHelp(false)}>Close</Button>}>
        <table className="w-full text-sm">
          <caption className="sr-only">Shortcuts</caption>
          <thead>
            <tr className="text-left text-slate-700">
              <th scope="col" className="py-1 pr-4">
                Keys
              </th>
              <th scope="col" className="py-1">
                Action
              </th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys} className="border-t border-slate-100">
                <td className="py-1 pr-4">
                  <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">{s.keys}</kbd>
                </td>
                <td className="py-1">{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Dialog>
    </header>
  );
}
