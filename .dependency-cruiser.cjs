// Layering (`npm run depcruise`, a step of `npm test`): which folders may import which. Each rule is one that
// CONTRIBUTING.md states; `npx depcruise --config .dependency-cruiser.cjs server lib components app` names
// every import that breaks one.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle, type-only imports included: server/context.ts declares the ports and imports only leaf types; server/services.ts, the composition root, builds them, and nothing imports it back.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-client-only-in-db',
      comment: 'Only server/db reaches the database client: everything else reads and writes through tenantDb(app, scope), which applies the tenant scope itself, or systemDb(app, reason) (server/db/index.ts). The composition root opens the database through server/db too; test support opens its own.',
      severity: 'error',
      from: {
        path: '^server/',
        pathNot: [
          '^server/db/',
          '\\.test\\.ts$',
          '^server/test/',
        ],
      },
      to: { path: '^server/db/client\\.ts$' },
    },
    {
      name: 'db-driver-only-in-db',
      comment: 'The database drivers (pg, PGlite and their drizzle adapters) are opened in server/db only, the LISTEN connection of the status bus included (server/db/listen-client.ts); test support opens its own.',
      severity: 'error',
      from: { path: '^server/', pathNot: ['^server/db/', '\\.test\\.ts$', '^server/test/'] },
      to: { path: '^node_modules/(pg|@electric-sql/pglite|drizzle-orm/(pglite|node-postgres))/' },
    },
    {
      name: 'pipeline-not-realtime',
      comment: 'Streaming calls the finalisation pipeline, not the reverse: the pipeline reaches open streams through the OpenStreams port (server/pipeline/open-streams.ts).',
      severity: 'error',
      from: { path: '^server/pipeline/' },
      to: { path: '^server/realtime/' },
    },
    {
      name: 'realtime-not-pipeline',
      comment: 'Streams end a recording and queue its finalisation (server/jobs/finalise-queue.ts); they reach recordings through server/recordings and engines through server/engines, never the finalisation pipeline.',
      severity: 'error',
      from: { path: '^server/realtime/' },
      to: { path: '^server/pipeline/' },
    },
    {
      name: 'components-not-server',
      comment: 'Components run in the browser and reach the server through lib/ (the typed client), never by importing server code.',
      severity: 'error',
      from: { path: '^components/' },
      to: { path: '^server/' },
    },
    {
      name: 'lib-not-server',
      comment: 'lib/ (contracts, client, hooks, stores) is bundled for the browser too; only its tests may use server helpers.',
      severity: 'error',
      from: { path: '^lib/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stays in the graph as leaves (doNotFollow), so rules can name a package (db-driver-only-in-db).
    exclude: { path: '^(\\.next[^/]*|data|tmp|public)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
