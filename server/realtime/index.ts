import type { UpgradeHandler } from '../context';
import { handleAmbientUpgrade } from './ambient';
import { handleTranscribeUpgrade } from './transcribe';

/** The WebSocket endpoints by path; createServices puts them in `services.wsRoutes`, which routeUpgrade reads. */
export function streamRoutes(): ReadonlyMap<string, UpgradeHandler> {
  return new Map<string, UpgradeHandler>([
    ['/ws/ambient', handleAmbientUpgrade],
    ['/ws/transcribe', handleTranscribeUpgrade],
  ]);
}
