import { randomBytes } from 'node:crypto';
import type { FakeResponse, RecordedRequest } from './fake-server.ts';

/** A file of Slack's external upload, from its reservation to its share in a channel. */
export interface FakeSlackFile {
  id: string;
  filename: string;
  /** The length declared to files.getUploadURLExternal; the upload must match it. */
  length: number;
  altTxt: string | undefined;
  title: string;
  /** What reached the upload URL (raw body, or the multipart file). */
  bytes: Buffer | undefined;
  contentType: string | undefined;
  completed: boolean;
  share?: { visibility: 'public' | 'private'; channel: string; ts: string };
}

/**
 * The external upload's three steps as Slack documents them: a reservation names the file and
 * its length, the upload URL takes the bytes (raw or multipart) once and answers 200 "OK - <n>",
 * files.completeUploadExternal finishes uploaded files only, once each.
 */
export class SlackFiles {
  readonly byId = new Map<string, FakeSlackFile>();
  readonly #uploadBase: () => string;

  constructor(uploadBase: () => string) {
    this.#uploadBase = uploadBase;
  }

  reserve(params: Record<string, string>): FakeResponse {
    const length = Number(params.length);
    if (!params.filename || !Number.isSafeInteger(length) || length <= 0)
      return { json: { ok: false, error: 'missing_argument' } };
    if (params.alt_txt !== undefined && [...params.alt_txt].length > 1000)
      return { json: { ok: false, error: 'alt_txt_too_large' } };
    const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
    this.byId.set(id, {
      id,
      filename: params.filename,
      length,
      altTxt: params.alt_txt,
      title: params.filename,
      bytes: undefined,
      contentType: undefined,
      completed: false,
    });
    return { json: { ok: true, upload_url: `${this.#uploadBase()}/${id}`, file_id: id } };
  }

  async receive(id: string, request: RecordedRequest): Promise<FakeResponse> {
    const file = this.byId.get(id);
    if (!file || file.bytes) return { status: 404, text: 'Not Found' };
    const part = Object.values(request.files)[0];
    const bytes = part ? Buffer.from(await part.arrayBuffer()) : request.rawBody;
    if (bytes.length !== file.length) return { status: 400, text: 'Bad Request - length mismatch' };
    file.bytes = bytes;
    file.contentType = part?.type ?? String(request.headers['content-type'] ?? '');
    return { text: `OK - ${bytes.length}` };
  }

  /** The files of a completion, or Slack's refusal when one was not uploaded or already completed. */
  complete(entries: { id?: string; title?: string }[]): FakeSlackFile[] | FakeResponse {
    const files: FakeSlackFile[] = [];
    for (const entry of entries) {
      const file = this.byId.get(String(entry.id));
      if (!file?.bytes || file.completed) return { json: { ok: false, error: 'file_not_found' } };
      files.push(file);
    }
    for (const [index, file] of files.entries()) {
      file.completed = true;
      file.title = entries[index]!.title ?? file.filename;
    }
    return files;
  }

  info(id: string | undefined): FakeResponse {
    const file = this.byId.get(id ?? '');
    if (!file?.completed) return { json: { ok: false, error: 'file_not_found' } };
    const share = file.share;
    return {
      json: {
        ok: true,
        file: {
          id: file.id,
          name: file.filename,
          title: file.title,
          mimetype: file.contentType,
          size: file.length,
          permalink: `https://fakeworkspace.slack.com/files/U0FAKEBOT/${file.id}/${encodeURIComponent(file.filename)}`,
          channels: share?.visibility === 'public' ? [share.channel] : [],
          groups: share?.visibility === 'private' ? [share.channel] : [],
          shares: share
            ? { [share.visibility]: { [share.channel]: [{ ts: share.ts, reply_count: 0 }] } }
            : {},
        },
      },
    };
  }
}
