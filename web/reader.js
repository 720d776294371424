// The file reader of one analysis job, in a worker of its own (started by worker.js for big inputs).
//
// Why a thread of its own: the analysis worker spends its time inside session.feed(), and a Blob read
// delivers its bytes through the event loop of the thread that asked for them, so a read-ahead started
// in the analysis worker only progresses between two feeds: reading and parsing took turns, about a
// fifth of the time on a 200 MB log. Here the reads run beside the parse, and each slice is handed
// over as a transferred ArrayBuffer. At most `ahead` slices are out at a
// time; the analysis worker returns a credit for each slice it takes, so memory stays bounded however
// large the file is.
//
// Messages in:  {type: 'read', blobs: [Blob…], chunk, ahead}, then {type: 'credit'} per slice taken.
// Messages out: {type: 'slice', file, offset, buf} (buf transferred), {type: 'end', file} after each
//               file's last slice (also for an empty file), {type: 'error', file, offset, message}.
'use strict';

let blobs = [];
let chunk = 8 * 1024 * 1024;
let credits = 0;
let file = 0;
let offset = 0;
let failed = false;

let reading = false;
let stream = null;  // the reader of blobs[file].stream(), opened at its first byte
let held = null;    // stream bytes received but not yet copied into a slice (a Uint8Array)

// The next `chunk` bytes of blobs[file] (fewer at its end) in a new ArrayBuffer, read from the file's
// stream. Why a stream, not Blob.slice().arrayBuffer() per slice: measured in Chromium on a 200 MB
// file, one stream costs about 0.45 s of CPU across the browser and this renderer, 8 MiB slices 0.7-1.1 s,
// and on a 2-core machine that CPU is taken from the parse. The stream's pieces (~0.3-1 MB each) are
// copied into slices of the job's size here, so the analysis worker keeps one feed per slice.
async function nextSlice(blob) {
  if (!stream) stream = blob.stream().getReader();
  const want = Math.min(chunk, blob.size - offset);
  const out = new Uint8Array(want);
  let have = 0;
  while (have < want) {
    if (!held || held.length === 0) {
      const { done, value } = await stream.read();
      if (done) break;  // the file is shorter than it said: the slice ends here
      held = value;
    }
    const n = Math.min(want - have, held.length);
    out.set(held.subarray(0, n), have);
    held = held.subarray(n);
    have += n;
  }
  return have === want ? out.buffer : out.slice(0, have).buffer;
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
        postMessage({ type: 'end', file });
        file++;
        offset = 0;
        stream = null;
        held = null;
        continue;
      }
      let buf;
      try {
        buf = await nextSlice(blob);
      } catch (err) {
        // The file went away or changed on disk while it was read: say where, and stop.
        failed = true;
        postMessage({ type: 'error', file, offset, message: String((err && err.message) || err) });
        return;
      }
      const length = buf.byteLength;  // before the transfer detaches buf
      if (length === 0) {
        // The file ended early (it shrank while being read): end it where its bytes ended.
        offset = blob.size;
        continue;
      }
      postMessage({ type: 'slice', file, offset, buf }, [buf]);
      offset += length;
      credits--;
    }
  } finally {
    reading = false;
  }
}

self.onmessage = (e) => {
  const msg = e.data || {};
  if (msg.type === 'read') {
    blobs = msg.blobs || [];
    if (msg.chunk > 0) chunk = msg.chunk;
    credits = msg.ahead > 0 ? msg.ahead : 2;
    pump();
  } else if (msg.type === 'credit') {
    credits++;
    pump();
  }
};
