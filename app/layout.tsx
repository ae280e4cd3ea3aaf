import type { Metadata } from 'next';
import { connection } from 'next/server';
import './globals.css';

export const metadata: Metadata = {
  title: 'Ambient — clinical documentation',
  description: 'Ambient clinical documentation: transcript, note and coded data from a visit.',
};

// Every page renders per request: its scripts carry that request's CSP nonce (proxy.ts), which a page
// prerendered at build time could not.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
