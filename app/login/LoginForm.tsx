'use client';
import { useActionState } from 'react';
import { Button, Input } from '@/components/ui';
import { loginAction, type LoginState } from './actions';

export function LoginForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, { error: initialError, email: '' });
  return (
    <form action={action} className="flex flex-col gap-4" aria-describedby={state.error ? 'login-error' : undefined}>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Input label="Email" name="email" type="email" autoComplete="username" required defaultValue={state.email} autoFocus />
      <Input label="Password" name="password" type="password" autoComplete="current-password" required />
      {state.error ? (
        <p id="login-error" role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
          {state.error}
        </p>
      ) : null}
      <Button type="submit" loading={pending}>
        Sign in
      </Button>
    </form>
  );
}
