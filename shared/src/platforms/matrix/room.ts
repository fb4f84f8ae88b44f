import { isPlatformError, PlatformError } from '../../errors.ts';
import { type MatrixApi, segment } from './api.ts';

interface PowerLevels {
  users?: Record<string, unknown>;
  users_default?: unknown;
  events?: Record<string, unknown>;
  events_default?: unknown;
}

const number = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** The room id of an id or alias (`#name:server` through the room directory). */
export async function resolveRoom(api: MatrixApi, room: string): Promise<string> {
  if (!room.startsWith('#')) return room;
  const answer = await api.request<{ room_id?: unknown }>({
    method: 'GET',
    path: `/_matrix/client/v3/directory/room/${segment(room)}`,
    operation: 'room',
  });
  if (typeof answer.room_id !== 'string' || !answer.room_id.startsWith('!'))
    throw new PlatformError('target_unreachable', `The homeserver knows no room ${room}`);
  return answer.room_id;
}

/**
 * A state event's content, or undefined when it cannot be read (none, hidden, or the server does
 * not say). Only a refused token stops the check: these lookups name the room, they do not gate it.
 */
async function state<T>(api: MatrixApi, roomId: string, type: string, key = ''): Promise<T | undefined> {
  try {
    return await api.request<T>({
      method: 'GET',
      path: `/_matrix/client/v3/rooms/${segment(roomId)}/state/${segment(type)}/${segment(key)}`,
      operation: 'room',
    });
  } catch (error) {
    if (isPlatformError(error) && error.code !== 'needs_reconnect') return undefined;
    throw error;
  }
}

/** Whether `userId` has joined the room: `/joined_rooms`, or its member event where that is not served. */
async function hasJoined(api: MatrixApi, roomId: string, userId: string): Promise<boolean> {
  const joined = await api
    .request<{ joined_rooms?: unknown }>({
      method: 'GET',
      path: '/_matrix/client/v3/joined_rooms',
      operation: 'room',
    })
    .catch((error: unknown) => {
      if (isPlatformError(error) && (error.status === 404 || error.status === 405)) return undefined;
      throw error;
    });
  if (Array.isArray(joined?.joined_rooms)) return joined.joined_rooms.includes(roomId);
  const member = await state<{ membership?: unknown }>(api, roomId, 'm.room.member', userId);
  return member?.membership === 'join';
}

/**
 * Checks that `userId` has joined the room and may send messages there (its power level against
 * the room's level for m.room.message, where the room lets it be read), then returns the room's
 * name for the account's label.
 */
export async function checkMembership(
  api: MatrixApi,
  roomId: string,
  userId: string,
): Promise<string | undefined> {
  if (!(await hasJoined(api, roomId, userId))) {
    const member = await state<{ membership?: unknown }>(api, roomId, 'm.room.member', userId);
    throw new PlatformError(
      'target_unreachable',
      member?.membership === 'invite'
        ? `${userId} is invited to the room but has not joined: accept the invitation first`
        : `${userId} is not a member of the room: invite it, and accept the invitation`,
    );
  }
  const levels = await state<PowerLevels>(api, roomId, 'm.room.power_levels');
  if (levels) {
    const mine = number(levels.users?.[userId], number(levels.users_default, 0));
    const needed = number(levels.events?.['m.room.message'], number(levels.events_default, 0));
    if (mine < needed) {
      throw new PlatformError(
        'target_unreachable',
        `${userId} may not post in this room (power level ${mine}, messages need ${needed})`,
      );
    }
  }
  const name = await state<{ name?: unknown }>(api, roomId, 'm.room.name');
  if (typeof name?.name === 'string' && name.name.trim()) return name.name.trim().slice(0, 100);
  const alias = await state<{ alias?: unknown }>(api, roomId, 'm.room.canonical_alias');
  return typeof alias?.alias === 'string' ? alias.alias.slice(0, 100) : undefined;
}
