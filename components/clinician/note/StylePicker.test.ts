import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { styleKeys } from '@/lib/hooks/note-style';
import { StylePicker } from './StylePicker';

const ID = '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

/** The picker as a finished visit shows it, its style already read (the cache holds it, so nothing is fetched). */
function render(locked: boolean): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(styleKeys.style(ID), { note_style: 'SOAP', effective_style: 'SOAP', rerendered: false });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(StylePicker, { id: ID, finished: true, locked })));
}

/** The opening tag of the button whose text is `text`. */
function buttonTag(html: string, text: string): string {
  const m = [...html.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].find((b) => b[1] === text);
  expect(m, `a button "${text}" in ${html}`).toBeDefined();
  return m![0].slice(0, m![0].indexOf('>') + 1);
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? (new RegExp(`\\s${name}(\\s|>|/)`).test(tag) ? '' : null);

describe('the note style picker on a signed note', () => {
  it('disables Apply style while the note is locked, and says why through aria-describedby', () => {
    const html = render(true);
    const apply = buttonTag(html, 'Apply style');
    expect(attr(apply, 'disabled')).toBe('');
    const reasonId = attr(apply, 'aria-describedby');
    expect(reasonId).toBeTruthy();
    const reason = new RegExp(`<p[^>]*\\sid="${reasonId}"[^>]*>([^<]*)</p>`).exec(html);
    expect(reason?.[1]).toBe('Signed notes are locked; amend to change the style.');
    // The choice of style is locked with it.
    expect(attr(/<select\b[^>]*>/.exec(html)![0], 'disabled')).toBe('');
  });

  it('enables Apply style again while the note is amended (not locked), with no lock reason', () => {
    const html = render(false);
    const apply = buttonTag(html, 'Apply style');
    expect(attr(apply, 'disabled')).toBeNull();
    expect(attr(apply, 'aria-describedby')).toBeNull();
    expect(html).not.toContain('Signed notes are locked');
    expect(html).toContain('Applying a style writes the note again from the transcript');
  });

  it('is left out of print, with the rest of the app\'s controls', () => {
    expect(/<section\b[^>]*data-testid="style-picker"/.exec(render(false))![0]).toContain('print:hidden');
  });
});
