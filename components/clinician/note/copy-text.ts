'use client';
import { toast } from '@/components/ui';

/** Copies to the clipboard and says so; `what` names the thing copied in the toast. */
export async function copyText(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`${what} copied to the clipboard.`);
  } catch {
    toast.error(`${what} could not be copied: the browser refused clipboard access.`);
  }
}
