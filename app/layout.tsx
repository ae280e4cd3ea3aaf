import type { Metadata } from 'next';
import './globals.css';

export const metadata: Metadata = {
  title: 'Ambient — clinical documentation',
  description: 'Ambient clinical documentation: transcript, note and coded data from a visit.',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
