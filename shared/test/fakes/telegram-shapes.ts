import type { FakeTelegramChat, SentFile } from './telegram.ts';
import { TelegramApiError } from './telegram-content.ts';

/** The shapes of the Bot API's answers (Chat, Message media, the error envelope) as the fake returns them. */

export type Params = Record<string, unknown>;
export type MediaType = 'photo' | 'video' | 'animation' | 'document';

export function failure(status: number, description: string, parameters?: Record<string, number>) {
  return { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) };
}

export function chatType(chat: FakeTelegramChat): NonNullable<FakeTelegramChat['type']> {
  return chat.type ?? (chat.id > 0 ? 'private' : 'channel');
}

export function chatKind(chat: FakeTelegramChat): string {
  const type = chatType(chat);
  return type === 'supergroup' ? 'supergroup' : type;
}

export function kicked(chat: FakeTelegramChat): TelegramApiError {
  if (chatType(chat) === 'private')
    return new TelegramApiError(403, 'Forbidden: bot was blocked by the user');
  return new TelegramApiError(403, `Forbidden: bot was kicked from the ${chatKind(chat)} chat`);
}

export function chatShape(chat: FakeTelegramChat): Params {
  const type = chatType(chat);
  if (type === 'private') {
    return {
      id: chat.id,
      type,
      first_name: chat.firstName ?? chat.title ?? 'User',
      ...(chat.username ? { username: chat.username } : {}),
    };
  }
  return {
    id: chat.id,
    type,
    title: chat.title ?? 'Chat',
    ...(chat.username ? { username: chat.username } : {}),
  };
}

export function mediaShape(type: MediaType, file: SentFile): Params {
  const fileId = `${type.toUpperCase()}_${Math.random().toString(36).slice(2, 12)}`;
  const base = { file_id: fileId, file_unique_id: fileId.slice(-8), file_size: file.size };
  switch (type) {
    case 'photo':
      return { photo: [{ ...base, width: 90, height: 90 }] };
    case 'video':
      return {
        video: {
          ...base,
          width: 320,
          height: 240,
          duration: 1,
          mime_type: file.contentType,
          file_name: file.filename,
        },
      };
    case 'animation': {
      const animation = {
        ...base,
        width: 320,
        height: 240,
        duration: 1,
        mime_type: file.contentType,
        file_name: file.filename,
      };
      return { animation, document: { ...base, mime_type: file.contentType, file_name: file.filename } };
    }
    case 'document':
      return { document: { ...base, mime_type: file.contentType, file_name: file.filename } };
  }
}
