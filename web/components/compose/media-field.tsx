import { type Dispatch, type DragEvent, useRef } from 'react';
import type { ComposerAction, MediaItem } from './composer-state.ts';

/** The drop zone, the file picker and the attached media with their upload progress. */
export function MediaField({
  media,
  dragging,
  dispatch,
  addFiles,
  removeMedia,
}: {
  media: MediaItem[];
  dragging: boolean;
  dispatch: Dispatch<ComposerAction>;
  addFiles: (files: FileList | File[]) => void;
  removeMedia: (item: MediaItem) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dispatch({ type: 'dragging', active: false });
    if (event.dataTransfer.files.length) addFiles(event.dataTransfer.files);
  };
  return (
    <div className="field">
      <span className="section-title" id="media-label">
        Media
      </span>
      <section
        className="dropzone"
        aria-labelledby="media-label"
        data-active={dragging}
        onDragOver={(e) => {
          e.preventDefault();
          dispatch({ type: 'dragging', active: true });
        }}
        onDragLeave={() => dispatch({ type: 'dragging', active: false })}
        onDrop={onDrop}
      >
        <p>
          Drag images or videos here, or{' '}
          <button type="button" className="btn btn-sm" onClick={() => fileInput.current?.click()}>
            choose files
          </button>
        </p>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept="image/*,video/*"
          className="sr-only"
          aria-labelledby="media-label"
          data-testid="media-input"
          onChange={(e) => {
            if (e.target.files) addFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </section>
      {media.length > 0 && (
        <ul className="media-grid list" aria-label="Attached media">
          {media.map((item) => (
            <MediaTile key={item.localId} item={item} onRemove={() => removeMedia(item)} />
          ))}
        </ul>
      )}
    </div>
  );
}

function MediaTile({ item, onRemove }: { item: MediaItem; onRemove: () => void }) {
  return (
    <li className="media-item" data-testid="media-item" data-uploaded={Boolean(item.media)}>
      {item.preview && item.contentType.startsWith('image/') ? (
        // biome-ignore lint/performance/noImgElement: local blob previews
        <img src={item.preview} alt={item.filename} />
      ) : item.preview && item.contentType.startsWith('video/') ? (
        <video src={item.preview} muted playsInline controls aria-label={item.filename} />
      ) : (
        <span className="media-file">{item.filename}</span>
      )}
      <button type="button" className="remove" aria-label={`Remove ${item.filename}`} onClick={onRemove}>
        ×
      </button>
      {!item.media && !item.error && (
        <span className="progress">
          <progress
            max={1}
            value={item.progress}
            aria-label={`Uploading ${item.filename}: ${Math.round(item.progress * 100)}%`}
          />
        </span>
      )}
      {item.error && (
        <span className="media-error" role="alert">
          {item.error}
        </span>
      )}
    </li>
  );
}
