import { crc32, deflateSync } from 'node:zlib';

/**
 * Tiny but real media files for tests: each is recognised by content sniffing (and the images
 * decode), so upload paths can be exercised without fixtures on disk.
 */

/** A valid 1x1 opaque red PNG. */
export function samplePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const scanline = Buffer.from([0, 255, 0, 0]); // filter byte + one RGB pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanline)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid 1x1 baseline JPEG. */
export function sampleJpeg(): Buffer {
  return Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  );
}

/** A valid 1x1 transparent GIF. */
export function sampleGif(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
}

/** An MP4 container: an `ftyp` box (brand isom) and an empty `mdat` box. */
export function sampleMp4(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'ascii');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isomiso2', 16, 'ascii');
  const mdat = Buffer.alloc(8);
  mdat.writeUInt32BE(8, 0);
  mdat.write('mdat', 4, 'ascii');
  return Buffer.concat([ftyp, mdat]);
}

/** A one-page PDF header and trailer (sniffs as application/pdf). */
export function samplePdf(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
}

/**
 * A sample padded with trailing bytes to exactly `size` bytes (still sniffs as its type), for
 * size-limit tests. Trailing data after the end marker is ignored by decoders.
 */
export function paddedSample(sample: Buffer, size: number): Buffer {
  if (size < sample.length)
    throw new Error(`paddedSample: ${size} is smaller than the sample (${sample.length})`);
  return Buffer.concat([sample, Buffer.alloc(size - sample.length, 0x20)]);
}
