import { type Dispatch, useCallback } from 'react';
import { reportUploadNotice } from '#components/upload-notices.tsx';
import { type ComposerAction, type MediaItem, type MediaSlot, optionKey } from './composer-state.ts';
import { nextLocalId } from './local-id.ts';
import { uploadFile } from './upload.ts';

/** Starts uploads and reports their progress as composer actions. */
export function useUploads(dispatch: Dispatch<ComposerAction>) {
  const addFiles = useCallback(
    (files: FileList | File[], slot: MediaSlot) => {
      for (const file of Array.from(files)) {
        const localId = nextLocalId();
        const abort = new AbortController();
        const preview =
          file.type.startsWith('image/') || file.type.startsWith('video/')
            ? URL.createObjectURL(file)
            : undefined;
        dispatch({
          type: 'mediaAdded',
          slot,
          item: { localId, filename: file.name, contentType: file.type, preview, progress: 0, abort },
        });
        const update = (patch: Partial<MediaItem>) => dispatch({ type: 'mediaUpdated', localId, patch });
        uploadFile(file, (progress) => update({ progress }), abort.signal, reportUploadNotice).then(
          (stored) => update({ media: stored, progress: 1 }),
          (e: Error) => {
            if (e.name !== 'AbortError') update({ error: e.message });
          },
        );
      }
    },
    [dispatch],
  );

  /**
   * Removes an item from one slot. An item copied into an account's version lives on there, so
   * its upload and preview are released only when no other slot holds it.
   */
  const removeMedia = useCallback(
    (item: MediaItem, slot: MediaSlot, heldElsewhere: boolean) => {
      if (!heldElsewhere) {
        item.abort?.abort();
        if (item.preview?.startsWith('blob:')) URL.revokeObjectURL(item.preview);
      }
      dispatch({ type: 'mediaRemoved', slot, localId: item.localId });
    },
    [dispatch],
  );

  /** Uploads the file of a `media` option field and stores its public URL as the option's value. */
  const uploadOption = useCallback(
    (accountId: string, name: string, file: File) => {
      const key = optionKey(accountId, name);
      dispatch({ type: 'optionUpload', key, upload: { progress: 0 } });
      uploadFile(
        file,
        (progress) => dispatch({ type: 'optionUpload', key, upload: { progress } }),
        new AbortController().signal,
        reportUploadNotice,
      ).then(
        (stored) => {
          dispatch({ type: 'optionUpload', key, upload: undefined });
          dispatch({ type: 'option', accountId, name, value: stored.url });
        },
        (e: Error) => dispatch({ type: 'optionUpload', key, upload: { progress: 0, error: e.message } }),
      );
    },
    [dispatch],
  );

  return { addFiles, removeMedia, uploadOption };
}
