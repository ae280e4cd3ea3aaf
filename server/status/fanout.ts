import { EventEmitter } from 'node:events';
import type { StatusChange, StatusListener } from './status-types';

export const STATUS_CHANNEL = 'ambient_session_status';

/** Fan-out shared by both implementations. */
export class StatusFanout {
  private readonly ee = new EventEmitter();
  constructor() {
    this.ee.setMaxListeners(0);
  }
  emit(change: StatusChange): void {
    this.ee.emit('change', change);
  }
  lost(): void {
    this.ee.emit('lost');
  }
  subscribe(listener: StatusListener, onLost?: () => void): () => void {
    this.ee.on('change', listener);
    if (onLost) this.ee.on('lost', onLost);
    return () => {
      this.ee.off('change', listener);
      if (onLost) this.ee.off('lost', onLost);
    };
  }
}

