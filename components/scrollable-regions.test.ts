import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Whether a region overflows depends on the fonts and the width of the screen it is drawn on, so axe in a
 * browser only catches the ones that happen to overflow there. Every element the styles let scroll must be
 * reachable by keyboard (tabIndex 0) and named, wherever it is drawn.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const SCROLLS = /(^|[\s'"`:])overflow-(x-|y-)?(auto|scroll)(?=$|[\s'"`])/;

function tsxFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : tsxFiles(p);
    return e.name.endsWith('.tsx') ? [p] : [];
  });
}

interface Scroller {
  where: string;
  focusable: boolean;
  named: boolean;
}

function scrollers(file: string): Scroller[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: Scroller[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      const attrs = new Map<string, string>();
      for (const a of node.attributes.properties) if (ts.isJsxAttribute(a)) attrs.set(a.name.getText(sf), a.initializer?.getText(sf) ?? '');
      if (SCROLLS.test(attrs.get('className') ?? '')) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        out.push({
          where: `${path.relative(ROOT, file)}:${line} <${node.tagName.getText(sf)}>`,
          focusable: attrs.get('tabIndex')?.replace(/\s/g, '') === '{0}',
          named: Boolean(attrs.get('aria-label') || attrs.get('aria-labelledby')),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('scrollable regions', () => {
  const all = ['app', 'components'].flatMap((d) => tsxFiles(path.join(ROOT, d))).flatMap(scrollers);

  it('finds the scrollable regions of the web app', () => {
    // The tables, transcripts and JSON views: if none were found, the scan itself would be broken.
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(all.map((s) => s.where).join('\n')).toMatch(/components\/ui\/Table\.tsx/);
  });

  it('makes every one keyboard-focusable (tabIndex 0) with an accessible name', () => {
    expect(all.filter((s) => !s.focusable).map((s) => s.where)).toEqual([]);
    expect(all.filter((s) => !s.named).map((s) => s.where)).toEqual([]);
  });

  it('reads a region without tabIndex or name as failing', () => {
    fs.mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, 'tmp', 'scroll-scan-'));
    try {
      const f = path.join(dir, 'Bad.tsx');
      fs.writeFileSync(f, 'export const Bad = () => <div className={cn("max-h-40 overflow-y-auto", x)}><p>long</p></div>;\n');
      expect(scrollers(f)).toEqual([{ where: expect.stringMatching(/Bad\.tsx:1 <div>$/), focusable: false, named: false }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
