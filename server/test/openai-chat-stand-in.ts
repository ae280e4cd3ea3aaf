/**
 * A STAND-IN for an OpenAI-compatible chat-completions server (OpenAI, Ollama, llama.cpp's server, vLLM),
 * which cannot be reached from here. It is a real HTTP server in the test process: POST
 * {base}/v1/chat/completions answers `{id, object: "chat.completion", choices: [{message, finish_reason}]}`
 * with whatever the test scripts (a status with Retry-After, malformed JSON, a cut-off answer, a note that
 * invents facts), and it records every request so the test can read what the engine sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInReply {
  status?: number;
  headers?: Record<string, string>;
  /** The assistant message's content (a JSON note, or deliberately broken text). */
  content?: string;
  finishReason?: string;
  /** A body sent as is instead of a chat completion. */
  raw?: string;
  /** Never answer (the engine's timeout must end the attempt). */
  hang?: boolean;
}

export interface StandInRequest {
  body: any;
  authorization?: string;
  /** The transcript lines the engine sent, as `[id] SPEAKER: text`. */
  lines: Array<{ id: string; speaker: string; text: string }>;
}

export type StandInScript = (req: StandInRequest, n: number) => StandInReply | Promise<StandInReply>;

export interface ChatStandIn {
  /** The base URL to configure as NOTES_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: StandInRequest[];
  /** Most requests that were open at once. */
  maxInFlight: number;
  inFlight: number;
  script: StandInScript;
  close(): Promise<void>;
}

/** The transcript lines in the engine's user message, so a scripted note can cite real (or fake) ids. */
export function transcriptLines(body: any): StandInRequest['lines'] {
  const user = (body?.messages ?? []).find((m: any) => m.role === 'user')?.content ?? '';
  return [...String(user).matchAll(/^\[([^\]]+)\] ([A-Z_]+): (.*)$/gm)].map((m) => ({ id: m[1], speaker: m[2], text: m[3] }));
}

export function chatCompletion(content: string, model = 'stand-in', finishReason = 'stop'): string {
  return JSON.stringify({ id: 'chatcmpl-stand-in', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }] });
}

/** Starts the stand-in on 127.0.0.1 (port 0 unless given); `script` decides each answer and can be swapped. */
export async function startChatStandIn(script: StandInScript, port = 0): Promise<ChatStandIn> {
  const sockets = new Set<import('node:net').Socket>();
  const state: ChatStandIn = {
    baseUrl: '',
    requests: [],
    maxInFlight: 0,
    inFlight: 0,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    const answer = async () => {
      // GET /v1/models is how clients (the bench) see that a server is there.
      if (req.method === 'GET' && /\/v1\/models$/.test(req.url ?? '')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"stand-in-model","object":"model"}]}');
      if (req.method !== 'POST' || !/\/v1\/chat\/completions$/.test(req.url ?? '')) return void res.writeHead(404).end();
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      res.on('close', () => state.inFlight--);
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"invalid JSON body"}}');
      }
      const request: StandInRequest = { body, authorization: req.headers.authorization, lines: transcriptLines(body) };
      state.requests.push(request);
      const reply = await state.script(request, state.requests.length - 1);
      if (reply.hang) return;
      const status = reply.status ?? 200;
      const payload = reply.raw ?? (status === 200 ? chatCompletion(reply.content ?? '', body.model, reply.finishReason) : '{"error":{"message":"stand-in error"}}');
      res.writeHead(status, { 'content-type': 'application/json', ...reply.headers }).end(payload);
    };
    req.on('end', () => void answer());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
