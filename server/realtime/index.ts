import { handleAmbientUpgrade } from './ambient';
import { wsRoutes } from './router';
import { handleTranscribeUpgrade } from './transcribe';

/** The WebSocket endpoints; server/main.ts calls this once before it listens. */
export function registerStreamRoutes(): void {
  wsRoutes.set('/ws/ambient', handleAmbientUpgrade);
  wsRoutes.set('/ws/transcribe', handleTranscribeUpgrade);
}
