'use client';
import { Button, Dialog } from '@/components/ui';
import { instructionLabel } from './rewrite-instructions';
import type { RewritePreview } from './use-rewrite-undo';

/** The selected text beside its rewrite; the clinician replaces the selection or keeps it. */
export function RewritePreviewDialog({ preview, onKeep, onReplace }: { preview: RewritePreview | null; onKeep: () => void; onReplace: () => void }) {
  return (
    <Dialog
      open={preview !== null}
      onClose={onKeep}
      title={`Rewrite: ${instructionLabel(preview?.instruction)}`}
      description="Compare, then replace the selected text or keep it."
      footer={
        <>
          <Button variant="secondary" onClick={onKeep}>
            Keep original
          </Button>
          <Button onClick={onReplace}>Replace selection</Button>
        </>
      }
    >
      {preview ? (
        <div className="flex flex-col gap-3 text-sm">
          <div>
            <p className="font-medium text-slate-700">Selected</p>
            <p className="rounded-md bg-slate-50 p-2 whitespace-pre-wrap">{preview.req.selected_text}</p>
          </div>
          <div>
            <p className="font-medium text-slate-700">Rewritten</p>
            <p className="rounded-md bg-green-50 p-2 whitespace-pre-wrap" data-testid="rewrite-preview">
              {preview.res.rewritten_text}
            </p>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
