'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/components/ui';

const LINKS = [
  { href: '/admin/partners', label: 'Partners' },
  { href: '/admin/sessions', label: 'Sessions' },
  { href: '/admin/webhooks', label: 'Webhook deliveries' },
  { href: '/admin/api-keys', label: 'API keys' },
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/audit', label: 'Audit log' },
];

export function AdminNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Admin console">
      <ul className="flex flex-wrap gap-1">
        {LINKS.map((l) => {
          const active = pathname === l.href || pathname.startsWith(`${l.href}/`);
          return (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'block rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700',
                  active ? 'bg-blue-800 text-white' : 'text-slate-800 hover:bg-slate-200',
                )}
              >
                {l.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
