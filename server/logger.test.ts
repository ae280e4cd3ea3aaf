import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger, createRequestLogger } from './logger';

function sink(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  return { stream, lines: () => text.trim().split('\n').map((l) => JSON.parse(l)) };
}

it('redacts secrets and patient text in the application log', () => {
  const out = sink();
  const log = createLogger('info', out.stream);
  log.info({ segment: { text: 'patient reports chest pain', start: 1 }, body: { password: 'hunter2' } }, 'segment stored');
  const [line] = out.lines();
  expect(line).toMatchObject({ segment: { text: '[redacted]', start: 1 }, body: { password: '[redacted]' }, msg: 'segment stored' });
});

it('writes request lines to the same destination in order, at the same level', () => {
  const out = sink();
  const log = createLogger('info', out.stream);
  const requests = createRequestLogger(log);
  log.info('first');
  requests.info({ requestId: 'r1', method: 'GET', path: '/api/health', status: 200, ms: 0.4 }, 'request');
  requests.debug({ requestId: 'r2' }, 'not at info');
  log.info('last');
  expect(out.lines().map((l) => l.msg)).toEqual(['first', 'request', 'last']);
  expect(out.lines()[1]).toMatchObject({ level: 30, requestId: 'r1', method: 'GET', path: '/api/health', status: 200, ms: 0.4 });
});
