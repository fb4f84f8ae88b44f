import { Readable } from 'node:stream';

export interface Peeked {
  /** The first bytes (at least `bytes` of them unless the stream was shorter). */
  head: Buffer;
  /** The whole stream again, starting with `head`. */
  stream: Readable;
}

/**
 * Reads the first `bytes` bytes of a stream and hands back a stream that still yields every byte,
 * so the media type can be sniffed before anything is written. The original stream is paused and
 * continued, never buffered whole.
 */
export function peek(source: Readable, bytes: number): Promise<Peeked> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const cleanup = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(buffer);
      length += buffer.length;
      if (length >= bytes) {
        source.pause();
        cleanup();
        const head = Buffer.concat(chunks);
        source.unshift(head);
        // Until the consumer attaches its own handler, an error (a dropped client) must not crash
        // the process; the consumer sees it through `source.errored`.
        source.on('error', ignore);
        resolve({ head, stream: source });
      }
    };
    const onEnd = () => {
      cleanup();
      const head = Buffer.concat(chunks);
      // An ended stream cannot take bytes back; a short body is safely held in memory instead.
      resolve({ head, stream: Readable.from(head.length ? [head] : []) });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    if (source.readableEnded) {
      onEnd();
      return;
    }
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.resume();
  });
}

function ignore(): void {}
