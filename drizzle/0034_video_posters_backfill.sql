-- Video posters (docs/media-library.md#thumbnails-and-posters): the videos already in the library
-- have none. Marking them uninspected makes the library's background inspection read each once
-- more, the first time a listing shows it, and make its poster where the Scheduler has ffmpeg.
UPDATE "media" SET "inspected_at" = NULL WHERE "content_type" LIKE 'video/%' AND "thumbnail_key" IS NULL;
