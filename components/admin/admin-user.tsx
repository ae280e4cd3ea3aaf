'use client';
import { createContext, useContext, type ReactNode } from 'react';

export interface AdminUserInfo {
  email: string;
  role: 'service_admin' | 'partner_admin';
  partnerId: string | null;
}

const Ctx = createContext<AdminUserInfo | null>(null);

export function AdminUserProvider({ user, children }: { user: AdminUserInfo; children: ReactNode }) {
  return <Ctx.Provider value={user}>{children}</Ctx.Provider>;
}

/** The signed-in admin; the server already checked the role, this only shapes the UI. */
export function useAdminUser(): AdminUserInfo {
  const u = useContext(Ctx);
  if (!u) throw new Error('useAdminUser outside the admin layout');
  return u;
}
