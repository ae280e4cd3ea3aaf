import * as contract from '@/lib/contracts/routes/note-style';
import { bindRoute } from '../http/route';
import { getVisitNoteStyle } from '../domain/note-style/get-visit-note-style';
import { setVisitNoteStyle } from '../domain/note-style/set-visit-note-style';
import { getPreChart } from '../domain/note-style/get-pre-chart';
import { setPrevisitNote } from '../domain/note-style/set-previsit-note';

export const noteStyleRoutes = [
  bindRoute(contract.getVisitNoteStyle, ({ app, auth, params }) => getVisitNoteStyle(app, auth, params.ambient_session_id)),
  bindRoute(contract.setVisitNoteStyle, ({ app, auth, params, body }) => setVisitNoteStyle(app, auth, params.ambient_session_id, body.note_style)),
  bindRoute(contract.getPreChart, ({ app, auth, params }) => getPreChart(app, auth, params.ambient_session_id)),
  bindRoute(contract.setPrevisitNote, ({ app, auth, params, body }) => setPrevisitNote(app, auth, params.ambient_session_id, body.previsit_note)),
];
