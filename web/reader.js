// The file reader of one analysis job, in a worker of its own (started by worker.js for big inputs).
//
// Why a thread of its own: the analysis worker spends its time inside session.feed(), and a Blob read
// delivers its bytes through the event loop of the thread that asked for them, so a read-ahead started
// in the analysis worker only progresses between two feeds: reading and parsing took turns, about a
// fifth of the time on a 200 MB log. Here the reads run beside the parse, and each slice is handed
// over as a transferred ArrayBuffer, so its bytes are not copied. At most `ahead` slices are out at a
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

// Reads while there are credits. This thread has nothing else to do, so Blob.arrayBuffer() here
// overlaps with the parse as well as a synchronous read would.
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
        continue;
      }
      let buf;
      try {
        buf = await blob.slice(offset, offset + chunk).arrayBuffer();
      } catch (err) {
        // The file went away or changed on disk while it was read: say where, and stop.
        failed = true;
        postMessage({ type: 'error', file, offset, message: String((err && err.message) || err) });
        return;
      }
      const length = buf.byteLength;  // before the transfer detaches buf
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
