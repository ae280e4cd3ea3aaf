// Moved to lib/api/fetch.ts (issue 28 item 7); this re-export goes once the note editor's files import it
// from there.
export * from './api/fetch';
