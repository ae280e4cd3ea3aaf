// Renamed to callAsClinician in lib/hooks/clinician-call.ts (issue 28 item 7); this re-export goes once the
// note editor's files import it from there.
export { callAsClinician as v1 } from './clinician-call';
