// Layering (`npm run depcruise`, a step of `npm test`): which folders may import which. Each rule is one that
// CONTRIBUTING.md states; `npx depcruise --config .dependency-cruiser.cjs server lib components app` names
// every import that breaks one.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'pipeline-not-realtime',
      comment: 'Streaming calls the finalisation pipeline, not the reverse: the pipeline reaches open streams through the OpenStreams port (server/pipeline/open-streams.ts).',
      severity: 'error',
      from: { path: '^server/pipeline/' },
      to: { path: '^server/realtime/' },
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
    exclude: { path: '^(node_modules|\\.next[^/]*|data|tmp|public)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
