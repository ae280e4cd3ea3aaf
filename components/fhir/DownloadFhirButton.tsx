'use client';
import { useState } from 'react';
import { Button } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { FHIR_JSON } from '@/lib/contracts/fhir';

export interface DownloadFhirButtonProps {
  /** Reads the Bundle with the caller's credentials (the clinician's service token, or the console session). */
  load: () => Promise<unknown>;
  /** File name offered to the browser. */
  filename: string;
  label?: string;
  size?: 'sm' | 'md';
}

/**
 * Saves a FHIR R4 document Bundle as a file. The API needs a token header, so the Bundle is fetched and
 * handed to the browser as a Blob download rather than opened by a plain link.
 */
export function DownloadFhirButton({ load, filename, label = 'Download FHIR bundle', size = 'sm' }: DownloadFhirButtonProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const bundle = await load();
      const url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: FHIR_JSON }));
      const a = document.createElement('a');
      a.href = url;
      a.download = filename;
      document.body.appendChild(a);
      a.click();
      a.remove();
      // Revoked after the click has been handed to the browser's download manager.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button size={size} variant="secondary" loading={busy} onClick={() => void download()}>
        {busy ? 'Preparing FHIR bundle…' : label}
      </Button>
      {error ? (
        <span role="alert" className="text-sm text-red-800">
          The FHIR bundle could not be downloaded: {error}
        </span>
      ) : null}
    </span>
  );
}
