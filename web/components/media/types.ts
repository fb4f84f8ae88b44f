/** A media library entry as `GET /api/v1/media` answers it. */
export interface LibraryItem {
  id: string;
  key: string;
  url: string;
  filename: string;
  contentType: string;
  size: number;
  storage: 'local' | 's3';
  width?: number;
  height?: number;
  durationMs?: number;
  altText?: string;
  tags: string[];
  sha256: string | null;
  thumbnailUrl?: string;
  createdAt: string;
  usedBy: { postId: string; status: string }[];
}

export interface LibraryPage {
  media: LibraryItem[];
  nextCursor: string | null;
}
