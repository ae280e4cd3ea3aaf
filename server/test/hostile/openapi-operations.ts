/** The v1 and admin operations a running server documents in /api/v1/openapi.json, for the hostile suites. */
export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Query parameters the route refuses the request without (a stale-write guard's version). */
  requiredQuery: string[];
  bodyProps: string[];
  hasBody: boolean;
  admin: boolean;
}

export async function loadOperations(baseUrl: string): Promise<Operation[]> {
  const doc = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[]; requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } }>>;
    components?: { schemas?: Record<string, Record<string, unknown>> };
  };
  const resolve = (schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
    const ref = schema?.$ref as string | undefined;
    return ref ? doc.components?.schemas?.[ref.split('/').pop()!] : schema;
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/v1/') && !path.startsWith('/api/admin/')) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        requiredQuery: (op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        bodyProps: Object.keys((bodySchema?.properties as Record<string, unknown> | undefined) ?? {}),
        // A JSON body: a route that takes raw bytes (an upload's chunk) has no fields to put NUL or nesting in.
        hasBody: Boolean(op.requestBody?.content?.['application/json']),
        admin: path.startsWith('/api/admin/'),
      });
    }
  }
  return operations;
}
