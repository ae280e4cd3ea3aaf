/**
 * Writes the thin app/ route file for every API path defined in server/api, so a new route definition
 * becomes reachable by running `npm run gen:routes`. Existing files are left as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROUTES } from '../server/api/index';

const root = path.resolve(import.meta.dirname, '..');
const paths = [...new Set(ROUTES.map((r) => r.path))];
let written = 0;
for (const p of paths) {
  const dir = path.join(root, 'app', ...p.split('/').filter(Boolean).map((seg) => seg.replace(/^\{(.+)\}$/, '[$1]')));
  const file = path.join(dir, 'route.ts');
  if (fs.existsSync(file)) continue;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    file,
    `import { handlersFor } from '@/server/api';\n\nexport const dynamic = 'force-dynamic';\nexport const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = handlersFor('${p}');\n`,
  );
  written++;
}
console.log(`${written} route files written, ${paths.length} paths defined`);
