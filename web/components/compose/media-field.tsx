import { type Dispatch, type DragEvent, useId, useRef, useState } from 'react';
import { Icon } from '#components/icons.tsx';
import type { ComposerAction, MediaItem, MediaSlot } from './composer-state.ts';

/** The drop zone, the file picker and the attached media with their upload progress and alt text. */
export function MediaField({
  slot,
  label,
  media,
  altLimit,
  altNote,
  inputTestId,
  dispatch,
  addFiles,
  removeMedia,
}: {
  slot: MediaSlot;
  label: string;
  media: MediaItem[];
  /** The shortest alt text limit of the selected platforms; null when none shows alt text. */
  altLimit: number | null;
  /** Said once under the media: the selected accounts whose platform publishes media without alt text. */
  altNote?: string | undefined;
  inputTestId: string;
  dispatch: Dispatch<ComposerAction>;
  addFiles: (files: FileList | File[]) => void;
  removeMedia: (item: MediaItem) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const id = useId();
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) addFiles(event.dataTransfer.files);
  };
  return (
    <div className="field">
      <span className="section-title" id={`${id}-label`}>
        {label}
      </span>
      <section
        className="dropzone"
        aria-labelledby={`${id}-label`}
        data-active={dragging}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
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
          // The "choose files" button is the keyboard path: Tab must not land on this invisible
          // input (issue 30), and a screen reader hears the button, not a second control.
          tabIndex={-1}
          aria-hidden="true"
          aria-labelledby={`${id}-label`}
          data-testid={inputTestId}
          onChange={(e) => {
            if (e.target.files) addFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </section>
      {media.length > 0 && (
        <ul className="media-grid media-grid-alt list" aria-label={`${label}: attached`}>
          {media.map((item) => (
            <li key={item.localId} className="media-entry">
              <MediaTile item={item} onRemove={() => removeMedia(item)} />
              <AltTextField
                id={`${id}-alt-${item.localId}`}
                item={item}
                limit={altLimit}
                onChange={(altText) => dispatch({ type: 'altText', slot, localId: item.localId, altText })}
              />
            </li>
          ))}
        </ul>
      )}
      {media.length > 0 && altNote && <p className="muted small">{altNote}</p>}
    </div>
  );
}

function MediaTile({ item, onRemove }: { item: MediaItem; onRemove: () => void }) {
  const name = item.altText?.trim() || item.filename;
  return (
    <div className="media-item" data-testid="media-item" data-uploaded={Boolean(item.media)}>
      {item.preview && item.contentType.startsWith('image/') ? (
        // biome-ignore lint/performance/noImgElement: local blob previews
        <img src={item.preview} alt={name} />
      ) : item.preview && item.contentType.startsWith('video/') ? (
        <video src={item.preview} muted playsInline controls aria-label={name} />
      ) : (
        <span className="media-file">{item.filename}</span>
      )}
      <button type="button" className="remove" aria-label={`Remove ${item.filename}`} onClick={onRemove}>
        <Icon name="close" size={16} />
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
    </div>
  );
}

/** The description screen readers give the media on the platforms; a badge says when it is missing. */
function AltTextField({
  id,
  item,
  limit,
  onChange,
}: {
  id: string;
  item: MediaItem;
  limit: number | null;
  onChange: (value: string) => void;
}) {
  const value = item.altText ?? '';
  const over = limit !== null && value.length > limit;
  return (
    <div className="alt-text">
      <div className="row alt-text-head">
        <label htmlFor={id} className="small">
          Alt text<span className="sr-only"> for {item.filename}</span>
        </label>
        {value.trim() === '' && (
          <span className="badge badge-warn" data-testid="no-alt-text">
            No alt text
          </span>
        )}
      </div>
      <textarea
        id={id}
        className="textarea alt-textarea"
        rows={2}
        value={value}
        placeholder="Describe the image for people who cannot see it"
        aria-invalid={over}
        aria-describedby={`${id}-count`}
        onChange={(e) => onChange(e.target.value)}
      />
      <span
        id={`${id}-count`}
        className="small alt-count"
        data-state={over ? 'over' : 'ok'}
        aria-live="polite"
      >
        {limit === null
          ? 'None of the selected platforms shows alt text.'
          : `${value.length.toLocaleString()} / ${limit.toLocaleString()}`}
      </span>
    </div>
  );
}
