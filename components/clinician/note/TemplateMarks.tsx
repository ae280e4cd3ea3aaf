import type { SummarySection } from '@/lib/contracts/sessions';

/**
 * Marks the section's fixed wording (issue 31): template text and the pre-visit note are listed under the
 * section as not from the visit, so the signer never reads them as something said in it.
 */
export function TemplateMarks({ sentences }: { sentences: SummarySection['sentences'] }) {
  const fixed = (sentences ?? []).filter((s) => s.template && s.text.trim());
  if (fixed.length === 0) return null;
  return (
    <div className="mt-2 rounded-md border border-dashed border-slate-400 bg-slate-50 p-2 text-sm" data-testid="template-text">
      <p className="text-xs font-semibold text-slate-800">Template text — not from the visit</p>
      <ul className="mt-1 flex flex-col gap-0.5">
        {fixed.map((s, i) => (
          <li key={i} className="text-slate-900">
            <span className="mr-1 rounded bg-slate-200 px-1 text-xs text-slate-800">template</span>
            {s.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
