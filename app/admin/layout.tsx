import Link from 'next/link';
import type { ReactNode } from 'react';
import { homeFor, requireConsoleUser } from '@/auth';
import { Button, Forbidden, Toaster } from '@/components/ui';
import { AdminNav } from '@/components/admin/AdminNav';
import { AdminUserProvider } from '@/components/admin/admin-user';
import { QueryProvider } from '@/components/admin/QueryProvider';
import { signOutAction } from '../login/actions';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Admin console — Ambient' };

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const { user, allowed } = await requireConsoleUser(['service_admin', 'partner_admin'], '/admin');
  if (!allowed) return <Forbidden role={user.role} home={homeFor(user.role)} />;
  const info = { email: user.email, role: user.role as 'service_admin' | 'partner_admin', partnerId: user.partnerId };
  return (
    <QueryProvider>
      <AdminUserProvider user={info}>
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
            <Link href="/admin" className="text-lg font-semibold text-slate-900">
              Ambient admin
            </Link>
            <div className="flex items-center gap-3 text-sm">
              <span className="text-slate-700">
                {user.email} · {user.role === 'service_admin' ? 'service admin' : `partner admin (${user.partnerId})`}
              </span>
              <form action={signOutAction}>
                <Button type="submit" size="sm" variant="secondary">
                  Sign out
                </Button>
              </form>
            </div>
          </div>
          <div className="mx-auto max-w-6xl px-4 pb-2">
            <AdminNav />
          </div>
        </header>
        <main id="main" className="mx-auto max-w-6xl px-4 py-6">
          {children}
        </main>
        <Toaster />
      </AdminUserProvider>
    </QueryProvider>
  );
}
