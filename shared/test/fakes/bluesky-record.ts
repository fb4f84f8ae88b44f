/**
 * The checks a PDS applies to an `app.bsky.feed.post` record (lexicon validation plus blob
 * constraints), with the error names and messages it answers with.
 */

export interface StoredBlob {
  did: string;
  cid: string;
  mimeType: string;
  size: number;
  bytes: Buffer;
}

export interface PostLimits {
  maxGraphemes: number;
  maxTextBytes: number;
  maxImages: number;
  maxImageBytes: number;
  maxVideoBytes: number;
}

export interface RecordProblem {
  error: string;
  message: string;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].length;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const invalid = (message: string): RecordProblem => ({
  error: 'InvalidRequest',
  message: `Invalid app.bsky.feed.post record: ${message}`,
});

export function checkPostRecord(
  record: unknown,
  did: string,
  blobs: ReadonlyMap<string, StoredBlob>,
  limits: PostLimits,
): RecordProblem | undefined {
  if (!isObject(record)) return invalid('Record must be an object');
  if (record.$type !== 'app.bsky.feed.post') {
    return {
      error: 'InvalidRequest',
      message: `Invalid $type: expected app.bsky.feed.post, got ${record.$type}`,
    };
  }
  if (typeof record.text !== 'string') return invalid('Record must have the property "text"');
  if (bytes(record.text) > limits.maxTextBytes) {
    return invalid(`Record/text must not be longer than ${limits.maxTextBytes} characters`);
  }
  if (graphemes(record.text) > limits.maxGraphemes) {
    return invalid(`Record/text must not be longer than ${limits.maxGraphemes} graphemes`);
  }
  if (typeof record.createdAt !== 'string' || Number.isNaN(Date.parse(record.createdAt))) {
    return invalid('Record/createdAt must be an valid atproto datetime (either ISO 8601 or RFC 3339)');
  }
  if (record.langs !== undefined) {
    if (!Array.isArray(record.langs)) return invalid('Record/langs must be an array');
    if (record.langs.length > 3) return invalid('Record/langs must not have more than 3 elements');
  }
  const replyProblem = checkReply(record.reply);
  if (replyProblem) return replyProblem;
  const facetProblem = checkFacets(record.facets, bytes(record.text));
  if (facetProblem) return facetProblem;
  if (record.embed !== undefined) return checkEmbed(record.embed, did, blobs, limits);
  return undefined;
}

/**
 * `reply: { root, parent }`, each a `com.atproto.repo.strongRef`. The lexicon checks only their
 * form: the PDS stores a reply to a post that does not exist (the AppView then shows it detached),
 * so the fake does too, and tests read `reply` from the stored record.
 */
function checkReply(reply: unknown): RecordProblem | undefined {
  if (reply === undefined) return undefined;
  if (!isObject(reply)) return invalid('Record/reply must be an object');
  for (const name of ['root', 'parent'] as const) {
    const ref = reply[name];
    if (!isObject(ref)) return invalid(`Record/reply must have the property "${name}"`);
    if (typeof ref.uri !== 'string' || !/^at:\/\/[^/]+\/[^/]+\/[^/]+$/.test(ref.uri))
      return invalid(`Record/reply/${name}/uri must be a valid at-uri`);
    if (typeof ref.cid !== 'string' || !/^baf[a-z0-9]{20,}$/.test(ref.cid))
      return invalid(`Record/reply/${name}/cid must be a cid string`);
  }
  return undefined;
}

function checkFacets(facets: unknown, textBytes: number): RecordProblem | undefined {
  if (facets === undefined) return undefined;
  if (!Array.isArray(facets)) return invalid('Record/facets must be an array');
  for (const [i, facet] of facets.entries()) {
    const path = `Record/facets/${i}`;
    if (!isObject(facet) || !isObject(facet.index)) return invalid(`${path} must have the property "index"`);
    const { byteStart, byteEnd } = facet.index;
    if (!Number.isInteger(byteStart) || (byteStart as number) < 0) {
      return invalid(`${path}/index/byteStart must be an integer >= 0`);
    }
    if (!Number.isInteger(byteEnd) || (byteEnd as number) < 0) {
      return invalid(`${path}/index/byteEnd must be an integer >= 0`);
    }
    // The lexicon alone would accept these; Bluesky's AppView then drops the facet. The fake
    // refuses them so a wrong offset fails a test instead of silently losing a link.
    if ((byteStart as number) >= (byteEnd as number) || (byteEnd as number) > textBytes) {
      return invalid(`${path}/index is outside the text (${byteStart}..${byteEnd} of ${textBytes} bytes)`);
    }
    if (!Array.isArray(facet.features) || facet.features.length === 0) {
      return invalid(`${path}/features must be a non-empty array`);
    }
    for (const [j, feature] of facet.features.entries()) {
      const problem = checkFeature(feature, `${path}/features/${j}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function checkFeature(feature: unknown, path: string): RecordProblem | undefined {
  if (!isObject(feature)) return invalid(`${path} must be an object`);
  switch (feature.$type) {
    case 'app.bsky.richtext.facet#link':
      return typeof feature.uri === 'string' && /^[a-z][a-z0-9+.-]*:\S+$/i.test(feature.uri)
        ? undefined
        : invalid(`${path}/uri must be a valid uri`);
    case 'app.bsky.richtext.facet#mention':
      return typeof feature.did === 'string' && feature.did.startsWith('did:')
        ? undefined
        : invalid(`${path}/did must be a valid did`);
    case 'app.bsky.richtext.facet#tag':
      return typeof feature.tag === 'string' && feature.tag.length > 0 && bytes(feature.tag) <= 640
        ? undefined
        : invalid(`${path}/tag must be a string of at most 640 bytes`);
    default:
      return invalid(`${path} must be an object which includes the "$type" property`);
  }
}

function checkEmbed(
  embed: unknown,
  did: string,
  blobs: ReadonlyMap<string, StoredBlob>,
  limits: PostLimits,
): RecordProblem | undefined {
  if (!isObject(embed)) return invalid('Record/embed must be an object');
  if (embed.$type === 'app.bsky.embed.images') {
    if (!Array.isArray(embed.images)) return invalid('Record/embed must have the property "images"');
    if (embed.images.length > limits.maxImages) {
      return invalid(`Record/embed/images must not have more than ${limits.maxImages} elements`);
    }
    for (const [i, image] of embed.images.entries()) {
      if (!isObject(image)) return invalid(`Record/embed/images/${i} must be an object`);
      if (typeof image.alt !== 'string')
        return invalid(`Record/embed/images/${i} must have the property "alt"`);
      const problem = checkBlob(image.image, did, blobs, 'image/', limits.maxImageBytes);
      if (problem) return problem;
    }
    return undefined;
  }
  if (embed.$type === 'app.bsky.embed.video') {
    if (embed.alt !== undefined && typeof embed.alt !== 'string')
      return invalid('Record/embed/alt must be a string');
    if (typeof embed.alt === 'string' && graphemes(embed.alt) > 1000)
      return invalid('Record/embed/alt must not be longer than 1000 graphemes');
    return checkBlob(embed.video, did, blobs, 'video/mp4', limits.maxVideoBytes);
  }
  return invalid(`Record/embed $type ${String(embed.$type)} is not supported by this fake`);
}

function checkBlob(
  ref: unknown,
  did: string,
  blobs: ReadonlyMap<string, StoredBlob>,
  accept: string,
  maxSize: number,
): RecordProblem | undefined {
  if (!isObject(ref) || ref.$type !== 'blob' || !isObject(ref.ref) || typeof ref.ref.$link !== 'string') {
    return invalid('Record/embed blob must be a blob ref');
  }
  const blob = blobs.get(ref.ref.$link);
  if (!blob || blob.did !== did)
    return { error: 'InvalidRequest', message: `Could not find blob: ${ref.ref.$link}` };
  if (!blob.mimeType.startsWith(accept)) {
    return {
      error: 'InvalidMimeType',
      message: `Wrong type of file. It is ${blob.mimeType} but it must match ${accept.endsWith('/') ? `${accept}*` : accept}.`,
    };
  }
  if (blob.size > maxSize) {
    return {
      error: 'BlobTooLarge',
      message: `This file is too large. It is ${blob.size} bytes but the maximum size is ${maxSize} bytes.`,
    };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
