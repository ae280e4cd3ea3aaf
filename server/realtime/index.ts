import { SERVICES } from '../services';
import { handleAmbientUpgrade } from './ambient';
import { closeStreams } from './close-streams';
import { wsRoutes } from './router';
import { handleTranscribeUpgrade } from './transcribe';

wsRoutes.set('/ws/ambient', handleAmbientUpgrade);
wsRoutes.set('/ws/transcribe', handleTranscribeUpgrade);

SERVICES.push({
  name: 'realtime',
  start() {},
  // server/main.ts closes streams before the HTTP server; this covers hosts that only stop services.
  stop: (ctx) => closeStreams(ctx),
});
