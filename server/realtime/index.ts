import { SERVICES } from '../services';
import { handleAmbientUpgrade } from './ambient';
import { getHub } from './hub';
import { wsRoutes } from './router';
import { handleTranscribeUpgrade } from './transcribe';

wsRoutes.set('/ws/ambient', handleAmbientUpgrade);
wsRoutes.set('/ws/transcribe', handleTranscribeUpgrade);

SERVICES.push({
  name: 'realtime',
  start() {},
  // Streams settle their stored audio and tell clients to reconnect; the session stays open for them.
  stop: (ctx) => getHub(ctx).stopAll(1001, 'server restarting; reconnect to continue'),
});
