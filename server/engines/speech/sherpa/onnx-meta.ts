import fs from 'node:fs';
import onnxProto from 'onnx-proto';
import protobuf from 'protobufjs/minimal.js';

const { onnx } = onnxProto;

/** ModelProto field numbers (onnx.proto): a model must have a graph; metadata_props carry sherpa-onnx's settings. */
const GRAPH = 7;
const METADATA_PROPS = 14;
const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/**
 * The custom metadata of an ONNX model, read by walking the top level of its ModelProto with reads of a
 * few bytes: a Whisper or Parakeet file is hundreds of MB, and only its last few hundred bytes are needed.
 * The walk also proves the file is a whole ModelProto: a truncated or foreign file has a field that runs
 * past its end or an impossible wire type. Errors name the file.
 */
export function readOnnxMetadata(file: string): Record<string, string> {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const bad = (why: string) => new Error(`${file} is not a valid ONNX model (${why}); download it again`);
    if (size === 0) throw bad('empty file');
    const head = Buffer.alloc(20);
    const meta: Record<string, string> = {};
    let pos = 0;
    let sawGraph = false;
    while (pos < size) {
      const n = fs.readSync(fd, head, 0, head.length, pos);
      const r = protobuf.Reader.create(head.subarray(0, n));
      let tag: number;
      let len = 0;
      try {
        tag = r.uint32();
        if ((tag & 7) === WIRE_LEN) len = r.uint32();
        else if ((tag & 7) === WIRE_VARINT) r.uint64();
      } catch {
        throw bad(`unreadable field at byte ${pos}`);
      }
      const wire = tag & 7;
      const field = tag >>> 3;
      if (field === 0) throw bad(`field 0 at byte ${pos}`);
      const bodyStart = pos + r.pos;
      let next: number;
      if (wire === WIRE_VARINT) next = bodyStart;
      else if (wire === WIRE_I64) next = bodyStart + 8;
      else if (wire === WIRE_I32) next = bodyStart + 4;
      else if (wire === WIRE_LEN) next = bodyStart + len;
      else throw bad(`wire type ${wire} at byte ${pos}`);
      if (next > size) throw bad(`field ${field} runs past the end of the file: truncated`);
      if (field === GRAPH && wire === WIRE_LEN) sawGraph = true;
      if (field === METADATA_PROPS && wire === WIRE_LEN) {
        const body = Buffer.alloc(len);
        fs.readSync(fd, body, 0, len, bodyStart);
        try {
          const entry = onnx.StringStringEntryProto.decode(body);
          meta[entry.key] = entry.value;
        } catch {
          throw bad(`unreadable metadata at byte ${pos}`);
        }
      }
      pos = next;
    }
    if (!sawGraph) throw bad('no graph');
    return meta;
  } finally {
    fs.closeSync(fd);
  }
}
