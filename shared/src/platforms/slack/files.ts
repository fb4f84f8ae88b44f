import { PlatformError } from '../../errors.ts';
import { defaultRequestTimeoutMs, platformFetch } from '../../http/fetch.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { SlackApi } from './api.ts';

/** A file as files.completeUploadExternal and files.info describe it (the parts we read). */
interface SlackFile {
  id?: string;
  permalink?: string;
  shares?: Record<string, Record<string, { ts?: string }[]> | undefined>;
}

export interface SharedFiles {
  fileIds: string[];
  /** The message the files were shared in, when Slack says (files.info needs `files:read`). */
  ts: string | undefined;
  permalink: string | undefined;
}

/** Generous time per byte for uploads (about 1 MB/s) on top of the normal timeout. */
const uploadMsPerByte = 1 / 1000;

/**
 * Slack's external upload: files.getUploadURLExternal per file, the bytes POSTed to the URL it
 * returns, then one files.completeUploadExternal sharing them all in the channel with the text
 * as `initial_comment`. The upload URL is Slack's own; the bot token is never sent to it.
 */
export async function shareFiles(
  api: SlackApi,
  files: readonly MediaFile[],
  share: { channel: string; text: string; threadTs: string | undefined },
  signal: AbortSignal,
): Promise<SharedFiles> {
  const uploaded: { id: string; title: string }[] = [];
  for (const file of files) {
    const name = fileName(file);
    const target = await api.call<{ upload_url?: string; file_id?: string }>(
      'files.getUploadURLExternal',
      { filename: name, length: file.size, ...(file.altText ? { alt_txt: file.altText } : {}) },
      'file',
    );
    if (!target.upload_url || !target.file_id)
      throw new PlatformError('platform_unavailable', 'Slack gave no upload URL for the file');
    const response = await platformFetch(target.upload_url, {
      method: 'POST',
      headers: { 'content-type': file.contentType },
      body: await file.blob(),
      signal,
      timeoutMs: defaultRequestTimeoutMs + Math.ceil(file.size * uploadMsPerByte),
    });
    await response.body?.cancel().catch(() => {});
    if (response.status !== 200) {
      throw new PlatformError(
        response.status >= 500 ? 'platform_unavailable' : 'media_rejected',
        `Slack refused the upload of ${name} (HTTP ${response.status})`,
        { status: response.status },
      );
    }
    uploaded.push({ id: target.file_id, title: file.filename });
  }
  const completed = await api.call<{ files?: SlackFile[] }>(
    'files.completeUploadExternal',
    {
      files: JSON.stringify(uploaded),
      channel_id: share.channel,
      ...(share.text ? { initial_comment: share.text } : {}),
      ...(share.threadTs ? { thread_ts: share.threadTs } : {}),
    },
    'file',
  );
  const first = completed.files?.[0];
  let ts = messageTs(first, share.channel);
  let permalink = first?.permalink;
  if (!ts && uploaded[0]) {
    // The share is recorded asynchronously; files.info may know its message already. Without
    // the files:read scope Slack refuses, and the file id stands in for the message.
    const info = await api
      .call<{ file?: SlackFile }>('files.info', { file: uploaded[0].id }, 'lookup', { read: true })
      .catch(() => undefined);
    ts = messageTs(info?.file, share.channel);
    permalink ??= info?.file?.permalink;
  }
  return { fileIds: uploaded.map((f) => f.id), ts, permalink };
}

function messageTs(file: SlackFile | undefined, channel: string): string | undefined {
  const shares = file?.shares;
  const ts = shares?.public?.[channel]?.[0]?.ts ?? shares?.private?.[channel]?.[0]?.ts;
  return typeof ts === 'string' ? ts : undefined;
}

/** Slack shows a file by its extension; the stored name may hold anything a user typed. */
function fileName(file: MediaFile): string {
  const base = file.filename.replace(/[\\/\u0000-\u001f]+/g, '_').slice(0, 200) || 'file';
  return /\.[A-Za-z0-9]{1,5}$/.test(base) ? base : `${base}.${extensionFor(file.contentType)}`;
}
