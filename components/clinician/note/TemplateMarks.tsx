import type { SummarySection } from '@/lib/contracts/sessions';
import { templateGroups } from './template-groups';

/**
 * Marks the section's fixed wording (issue 31): template text and the pre-visit note are listed under the
 * section as not from the visit, so the signer never reads them as something said in it. A template sentence
 * filled from the visit (the follow-up interval) is listed apart: its wording is the template's, its fact is not.
 */
export function TemplateMarks({ sentences }: { sentences: SummarySection['sentences'] }) {
  const { fixed, filled } = templateGroups(sentences);
  if (fixed.length === 0 && filled.length === 0) return null;
  return (
    <div className="mt-2 rounded-md border border-dashed border-slate-400 bg-slate-50 p-2 text-sm" data-testid="template-text">
      {fixed.length > 0 && <TemplateList title="Template text — not from the visit" items={fixed} />}
      {filled.length > 0 && <TemplateList title="Template wording, filled from the visit (see its evidence)" items={filled} />}
    </div>
  );
}

function TemplateList({ title, items }: { title: string; items: NonNullable<SummarySection['sentences']> }) {
  return (
    <>
      <p className="text-xs font-semibold text-slate-800">{title}</p>
      <ul className="mt-1 mb-1 flex flex-col gap-0.5">
        {items.map((s, i) => (
          <li key={i} className="text-slate-900">
            <span className="mr-1 rounded bg-slate-200 px-1 text-xs text-slate-800">template</span>
            {s.text}
          </li>
        ))}
      </ul>
    </>
  );
}
