/**
 * The server's CPU per visit by stage (issue 30 item 1), from its /metrics: the speech engine's thread-CPU
 * counters per stage (server/engines/speech/stage-cpu.ts), the event loop's own CPU and the process total.
 * The rest of the event loop is audio storage, the ambient state machine, sockets, HTTP, the database and
 * the notes engine; the rest of the process is other threads (GC, libuv pool, the decoder threads' JS).
 */
export interface CpuSnapshot {
  process: number;
  eventLoop: number;
  stages: Record<string, number>;
  /** Wall seconds of the pipeline's stages (pipeline_stage_duration_seconds_sum): notes, transcribe … */
  pipelineWall: Record<string, number>;
}

export async function readServerCpu(baseUrl: string): Promise<CpuSnapshot> {
  const res = await fetch(`${baseUrl}/metrics`);
  if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
  const snap: CpuSnapshot = { process: 0, eventLoop: 0, stages: {}, pipelineWall: {} };
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const [, name, labels = '', v] = m;
    const label = (k: string) => new RegExp(`${k}="([^"]*)"`).exec(labels)?.[1] ?? '';
    if (name === 'process_cpu_seconds_total') snap.process = Number(v);
    else if (name === 'event_loop_thread_cpu_seconds_total') snap.eventLoop = Number(v);
    else if (name === 'speech_stage_cpu_seconds_total') snap.stages[label('stage')] = Number(v);
    else if (name === 'pipeline_stage_duration_seconds_sum') snap.pipelineWall[label('stage')] = Number(v);
  }
  return snap;
}

export type CpuBreakdown = Record<string, number>;

/** CPU-seconds per visit between two snapshots, by stage; `other_*` are what the counters leave. */
export function cpuPerVisit(a: CpuSnapshot, b: CpuSnapshot, visits: number): CpuBreakdown {
  const d = (x: number | undefined, y: number | undefined) => (y ?? 0) - (x ?? 0);
  const st = (k: string) => d(a.stages[k], b.stages[k]);
  const workers = st('live_decode') + st('live_partial') + st('final_decode') + st('decoder_init');
  const onLoop = st('live_vad') + st('final_vad') + st('speaker_roles');
  const total = d(a.process, b.process);
  const loop = d(a.eventLoop, b.eventLoop);
  const out: CpuBreakdown = {
    live_decode: st('live_decode'),
    live_partial: st('live_partial'),
    live_vad: st('live_vad'),
    final_decode: st('final_decode'),
    final_vad: st('final_vad'),
    decoder_init: st('decoder_init'),
    speaker_roles: st('speaker_roles'),
    other_event_loop: loop - onLoop,
    other_threads: total - loop - workers,
    total,
    notes_wall: d(a.pipelineWall.notes, b.pipelineWall.notes),
  };
  for (const k of Object.keys(out)) out[k] = Math.round((out[k]! / visits) * 100) / 100;
  return out;
}

export function formatBreakdown(c: CpuBreakdown): string {
  return (
    `CPU-s per visit: live decode ${c.live_decode}, partials ${c.live_partial}, VAD ${c.live_vad} live + ${c.final_vad} final, ` +
    `final pass ${c.final_decode}, decoder init ${c.decoder_init}, speaker roles ${c.speaker_roles}, ` +
    `event loop otherwise (storage, bookkeeping, sockets, DB, notes) ${c.other_event_loop}, other threads (GC, libuv, workers' JS) ${c.other_threads}; ` +
    `total ${c.total} (notes stage wall time ${c.notes_wall} s)`
  );
}
