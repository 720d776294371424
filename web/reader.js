// The file reader of one analysis job, in a worker of its own, started by the page beside the analysis
// worker and joined to it by a MessagePort (newAnalysisWorker in app.js; worker.js uses it for big inputs).
//
// Why a thread of its own: the analysis worker spends its time inside session.feed(), and a Blob read
// delivers its bytes through the event loop of the thread that asked for them, so a read-ahead started
// in the analysis worker only progresses between two feeds: reading and parsing took turns, about a
// fifth of the time on a 200 MB log. Here the reads run beside the parse, and each slice is handed
// over as a transferred ArrayBuffer. At most `ahead` slices are out at a time; the analysis worker
// returns a credit for each slice it takes (with the slice's buffer, for the next read), so memory
// stays bounded however large the file is.
//
// From the page: {type: 'connect', port}. Then on that port, in: {type: 'read', blobs: [Blob…], chunk,
// ahead, byob?}, {type: 'credit', buf?} per slice taken, {type: 'stop'} (the job needs no more bytes);
// out: {type: 'slice', file, offset, buf, length} (buf transferred; its first `length` bytes are the
// slice), {type: 'end', file} after each file's last slice (also for an empty file),
// {type: 'error', file, offset, message}.
'use strict';

let blobs = [];
let chunk = 1024 * 1024;  // the analysis worker says which (its CHUNK)
let credits = 0;
let ahead = 2;       // slices out at a time (the analysis worker says how many)
let file = 0;
let offset = 0;
let failed = false;
let port = null;  // to the analysis worker

let reading = false;
let stream = null;  // the reader of blobs[file].stream(), opened at its first byte
let byob = true;    // whether the stream reads into buffers of ours (a byte stream), else its own pieces
let held = null;    // default reader: bytes received but not yet copied into a slice (a Uint8Array)
const pool = [];    // slice buffers the analysis worker has given back, reused by the next reads

// Why a stream, not Blob.slice().arrayBuffer() per slice: in Chromium, slices cost the most CPU across
// the browser and this renderer, one stream read into our own buffers (a "BYOB" reader) the least,
// and one stream giving its own pieces in between (each piece is a fresh buffer, whose pages the
// kernel must first hand out). On a 2-core machine that CPU is taken
// from the parse. So: a BYOB reader filling `chunk`-sized buffers that go back and forth between this
// worker and the analysis worker (transferred both ways, so never copied and never new), and where a
// browser has no byte streams for files, the pieces of a default reader copied into slices.
function openStream(blob) {
  if (byob) {
    try {
      return blob.stream().getReader({ mode: 'byob' });
    } catch (e) {
      byob = false;
    }
  }
  return blob.stream().getReader();
}

// The next `chunk` bytes of blobs[file] (fewer at its end): {buf, length}.
async function nextSlice(blob) {
  if (!stream) stream = openStream(blob);
  const want = Math.min(chunk, blob.size - offset);
  if (byob) {
    let buf = pool.pop() || new ArrayBuffer(chunk);
    let have = 0;
    while (have < want) {
      const { done, value } = await stream.read(new Uint8Array(buf, have, want - have));
      if (!value) return { buf: new ArrayBuffer(0), length: 0 };  // the stream was cancelled
      buf = value.buffer;  // the read transferred it: this is the same memory under a new name
      if (done) break;     // the file is shorter than it said: the slice ends here
      have += value.length;
    }
    return { buf, length: have };
  }
  const out = new Uint8Array(want);
  let have = 0;
  while (have < want) {
    if (!held || held.length === 0) {
      const { done, value } = await stream.read();
      if (done) break;
      held = value;
    }
    const n = Math.min(want - have, held.length);
    out.set(held.subarray(0, n), have);
    held = held.subarray(n);
    have += n;
  }
  return { buf: out.buffer, length: have };
}

// Reads while there are credits. This thread has nothing else to do, so the stream's reads here
// overlap with the parse.
async function pump() {
  if (reading) return;
  reading = true;
  try {
    while (!failed && credits > 0 && file < blobs.length) {
      const blob = blobs[file];
      if (offset >= blob.size) {
        port.postMessage({ type: 'end', file });
        file++;
        offset = 0;
        stream = null;
        held = null;
        continue;
      }
      let slice;
      try {
        slice = await nextSlice(blob);
      } catch (err) {
        // The file went away or changed on disk while it was read: say where, and stop.
        failed = true;
        port.postMessage({ type: 'error', file, offset, message: String((err && err.message) || err) });
        return;
      }
      if (slice.length === 0) {
        // The file ended early (it shrank while being read): end it where its bytes ended.
        if (slice.buf.byteLength === chunk) pool.push(slice.buf);
        offset = blob.size;
        continue;
      }
      port.postMessage({ type: 'slice', file, offset, buf: slice.buf, length: slice.length }, [slice.buf]);
      offset += slice.length;
      credits--;
    }
  } finally {
    reading = false;
  }
}

function onJobMessage(e) {
  const msg = e.data || {};
  if (msg.type === 'read') {
    blobs = msg.blobs || [];
    if (msg.chunk > 0) chunk = msg.chunk;
    if (msg.byob === false) byob = false;
    if (msg.ahead > 0) ahead = msg.ahead;
    credits = ahead;
    pump();
  } else if (msg.type === 'credit') {
    // A slice was taken; its buffer comes back with the credit once its bytes are in the wasm heap.
    if (msg.buf instanceof ArrayBuffer && msg.buf.byteLength === chunk && pool.length < ahead) pool.push(msg.buf);
    credits++;
    pump();
  } else if (msg.type === 'stop') {
    failed = true;  // pump() reads no more
    if (stream) stream.cancel().catch(() => {});
  }
}

self.onmessage = (e) => {
  const msg = e.data || {};
  if (msg.type === 'connect' && msg.port) {
    port = msg.port;
    port.onmessage = onJobMessage;
  }
};
