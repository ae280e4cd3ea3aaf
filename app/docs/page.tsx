import { CONTRACTS } from '@/lib/contracts/routes';
import { buildOpenApiDocument } from '@/server/http/openapi';

// Rendered per request like every page, for its CSP nonce (proxy.ts).
export const dynamic = 'force-dynamic';

type Operation = {
  summary?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

const METHOD_COLOURS: Record<string, string> = {
  get: 'bg-emerald-100 text-emerald-900',
  post: 'bg-blue-100 text-blue-900',
  patch: 'bg-amber-100 text-amber-900',
  put: 'bg-amber-100 text-amber-900',
  delete: 'bg-red-100 text-red-900',
};

function Schema({ value, label }: { value: unknown; label: string }) {
  return <pre tabIndex={0} aria-label={label} className="mt-1 max-h-80 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{JSON.stringify(value, null, 2)}</pre>;
}

export default function DocsPage() {
  const doc = buildOpenApiDocument(CONTRACTS, '') as {
    info: { title: string; description: string };
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, unknown> };
  };
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
  const tags = [...new Set(ops.map((o) => o.op.tags?.[0] ?? 'Other'))];
  return (
    <main className="mx-auto max-w-5xl p-6">
      <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
      <p className="mt-2 text-slate-700">{doc.info.description}</p>
      <p className="mt-2 text-sm">
        Machine-readable: <a className="text-blue-700 underline" href="/api/v1/openapi.json">/api/v1/openapi.json</a>
      </p>
      <nav aria-label="Sections" className="mt-4 flex flex-wrap gap-2">
        {tags.map((t) => (
          <a key={t} href={`#${t}`} className="rounded border border-slate-300 px-2 py-1 text-sm">
            {t}
          </a>
        ))}
      </nav>
      {tags.map((tag) => (
        <section key={tag} id={tag} className="mt-8">
          <h2 className="text-xl font-semibold">{tag}</h2>
          {ops
            .filter((o) => (o.op.tags?.[0] ?? 'Other') === tag)
            .map(({ path, method, op }) => (
              <details key={`${method} ${path}`} className="mt-3 rounded border border-slate-200 bg-white p-3">
                <summary className="cursor-pointer">
                  <span className={`mr-2 rounded px-2 py-0.5 font-mono text-xs uppercase ${METHOD_COLOURS[method] ?? ''}`}>{method}</span>
                  <code className="font-mono text-sm">{path}</code>
                  <span className="ml-2 text-sm text-slate-700">{op.summary}</span>
                  {op.deprecated ? <span className="ml-2 text-xs text-red-800">(deprecated)</span> : null}
                </summary>
                {op.parameters?.length ? (
                  <div className="mt-2">
                    <h3 className="font-medium">Parameters</h3>
                    <ul className="list-disc pl-6 text-sm">
                      {op.parameters.map((p) => (
                        <li key={`${p.in}-${p.name}`}>
                          <code>{p.name}</code> ({p.in}){p.required ? ', required' : ''}
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
                {op.requestBody ? (
                  <div className="mt-2">
                    <h3 className="font-medium">Request body</h3>
                    <Schema label={`Request body schema of ${method.toUpperCase()} ${path}`} value={Object.values(op.requestBody.content)[0]?.schema} />
                  </div>
                ) : null}
                <div className="mt-2">
                  <h3 className="font-medium">Responses</h3>
                  <ul className="text-sm">
                    {Object.entries(op.responses).map(([status, r]) => (
                      <li key={status} className="mt-1">
                        <strong>{status}</strong> {r.description}
                      </li>
                    ))}
                  </ul>
                </div>
              </details>
            ))}
        </section>
      ))}
      {doc.components?.schemas ? (
        <section className="mt-8">
          <h2 className="text-xl font-semibold">Schemas</h2>
          {Object.entries(doc.components.schemas).map(([name, schema]) => (
            <details key={name} className="mt-2 rounded border border-slate-200 bg-white p-3">
              <summary className="cursor-pointer font-mono text-sm">{name}</summary>
              <Schema label={`Schema ${name}`} value={schema} />
            </details>
          ))}
        </section>
      ) : null}
    </main>
  );
}
