import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/*
 * A fake of the VK API as documented at https://dev.vk.com/en/reference: methods at
 * `POST /method/<name>` with query or form parameters (`access_token`, `v`), answers
 * `{ response }` or, with HTTP 200 still, `{ error: { error_code, error_msg, request_params } }`
 * (5 authorization failed, 6 too many requests per second, 7 permission denied, 100 invalid
 * parameter, 15 / 214 access denied, 203 no access to the community), `users.get`,
 * `groups.getById` (5.199's `{ groups, profiles }`), the wall photo chain
 * (`photos.getWallUploadServer` → multipart `photo` to the upload URL → `photos.saveWallPhoto`)
 * and `wall.post` with `guid` (a repeated guid answers the post it made).
 */

export interface FakeVkUser {
  id: number;
  firstName: string;
  lastName: string;
  /** Community ids the user administers. */
  admin?: number[];
  /** Token rights; default wall, photos, offline. */
  rights?: string[];
}

export interface FakeVkPost {
  ownerId: number;
  id: number;
  fromGroup: boolean;
  message: string;
  attachments: string[];
  guid: string | null;
  byUser: number;
}

export interface FakeVkPhoto {
  ownerId: number;
  id: number;
  type: string;
  size: number;
  filename: string;
}

export interface FakeVkOptions {
  /** token → user. */
  tokens?: Record<string, FakeVkUser>;
  groups?: { id: number; name: string; screenName: string }[];
}

const vkError = (code: number, msg: string, request: RecordedRequest): FakeResponse => ({
  json: {
    error: {
      error_code: code,
      error_msg: msg,
      request_params: Object.entries(params(request))
        .filter(([key]) => key !== 'access_token')
        .map(([key, value]) => ({ key, value })),
    },
  },
});

function params(request: RecordedRequest): Record<string, string> {
  return { ...Object.fromEntries(request.query), ...((request.body as Record<string, string>) ?? {}) };
}

export class FakeVk {
  readonly server = new FakeServer();
  readonly posts: FakeVkPost[] = [];
  readonly photos: FakeVkPhoto[] = [];
  readonly tokens: Map<string, FakeVkUser>;
  readonly groups: { id: number; name: string; screenName: string }[];
  /** Answer error 6 to the next `n` method calls. */
  tooManyRequests = 0;
  readonly #uploads = new Map<string, { ownerId: number; userId: number }>();
  readonly #uploaded = new Map<string, FakeVkPhoto & { hash: string; server: number; userId: number }>();
  #nextPost = 100;
  #nextPhoto = 456_000;

  constructor(options: FakeVkOptions = {}) {
    this.tokens = new Map(
      Object.entries(
        options.tokens ?? {
          'vk1.a.alice': { id: 1001, firstName: 'Alice', lastName: 'Ivanova', admin: [77] },
        },
      ),
    );
    this.groups = options.groups ?? [
      { id: 77, name: 'Alice Club', screenName: 'aliceclub' },
      { id: 88, name: 'Other Club', screenName: 'other' },
    ];
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return { VK_API_URL: `${this.url}/method` };
  }

  calls(method: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === `/method/${method}`);
  }

  revoke(token: string): void {
    this.tokens.delete(token);
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #method(
    name: string,
    handle: (p: Record<string, string>, user: FakeVkUser, r: RecordedRequest) => FakeResponse,
  ) {
    this.server.route('POST', new RegExp(`^/method/${name.replace('.', '\\.')}$`), (request) => {
      const p = params(request);
      if (this.tooManyRequests > 0) {
        this.tooManyRequests--;
        return vkError(6, 'Too many requests per second', request);
      }
      const user = this.tokens.get(p.access_token ?? '');
      if (!user) return vkError(5, 'User authorization failed: invalid access_token (4).', request);
      if (!p.v) return vkError(8, 'Invalid request: v (version) is required', request);
      return handle(p, user, request);
    });
  }

  #rights(user: FakeVkUser): string[] {
    return user.rights ?? ['wall', 'photos', 'offline'];
  }

  #routes(): void {
    this.#method('users.get', (_p, user) => ({
      json: {
        response: [
          {
            id: user.id,
            first_name: user.firstName,
            last_name: user.lastName,
            screen_name: `id${user.id}`,
            photo_100: `https://sun.userapi.example/${user.id}.jpg`,
            can_access_closed: true,
            is_closed: false,
          },
        ],
      },
    }));
    this.#method('groups.getById', (p, user, r) => {
      const group = this.groups.find((g) => String(g.id) === p.group_id);
      if (!group) return vkError(100, 'One of the parameters specified was missing or invalid: group_id', r);
      return {
        json: {
          response: {
            groups: [
              {
                id: group.id,
                name: group.name,
                screen_name: group.screenName,
                type: 'group',
                is_closed: 0,
                is_admin: user.admin?.includes(group.id) ? 1 : 0,
                photo_100: `https://sun.userapi.example/g${group.id}.jpg`,
              },
            ],
            profiles: [],
          },
        },
      };
    });
    this.#method('photos.getWallUploadServer', (p, user, r) => {
      if (!this.#rights(user).includes('photos'))
        return vkError(7, 'Permission to perform this action is denied', r);
      const groupId = p.group_id ? Number(p.group_id) : undefined;
      if (groupId !== undefined && !user.admin?.includes(groupId))
        return vkError(203, 'Access to group denied: access to the group is denied.', r);
      const id = randomBytes(6).toString('hex');
      this.#uploads.set(id, { ownerId: groupId ? -groupId : user.id, userId: user.id });
      return {
        json: { response: { upload_url: `${this.url}/upload/${id}`, album_id: -14, user_id: user.id } },
      };
    });
    this.server.route('POST', /^\/upload\/([0-9a-f]+)$/, (request, match) => {
      const upload = this.#uploads.get(match[1]!);
      const file = request.files.photo;
      if (!upload) return { json: { error: 'ERR_UPLOAD_BAD_URL' } };
      if (!file || !/^image\/(jpeg|png|gif)$/.test(file.type))
        return { json: { server: 1, photo: '[]', hash: 'd41d8cd98f00b204e9800998ecf8427e' } };
      const key = randomBytes(8).toString('hex');
      const hash = randomBytes(16).toString('hex');
      this.#uploaded.set(key, {
        ownerId: upload.ownerId,
        userId: upload.userId,
        id: 0,
        type: file.type,
        size: file.size,
        filename: file.name,
        hash,
        server: 625_000,
      });
      return { json: { server: 625_000, photo: JSON.stringify([{ photo: key, sizes: [] }]), hash } };
    });
    this.#method('photos.saveWallPhoto', (p, user, r) => {
      let key: string | undefined;
      try {
        key = (JSON.parse(p.photo ?? '') as { photo: string }[])[0]?.photo;
      } catch {}
      const uploaded = key ? this.#uploaded.get(key) : undefined;
      if (!uploaded || uploaded.hash !== p.hash || String(uploaded.server) !== p.server)
        return vkError(121, 'Invalid hash', r);
      if (uploaded.userId !== user.id)
        return vkError(100, 'One of the parameters specified was missing or invalid', r);
      const groupId = p.group_id ? Number(p.group_id) : undefined;
      if ((groupId ? -groupId : user.id) !== uploaded.ownerId)
        return vkError(100, 'group_id does not match', r);
      this.#uploaded.delete(key!);
      const photo: FakeVkPhoto = {
        ownerId: uploaded.ownerId,
        id: this.#nextPhoto++,
        type: uploaded.type,
        size: uploaded.size,
        filename: uploaded.filename,
      };
      this.photos.push(photo);
      return { json: { response: [{ id: photo.id, owner_id: photo.ownerId, album_id: -14, date: 0 }] } };
    });
    this.#method('wall.post', (p, user, r) => {
      if (!this.#rights(user).includes('wall'))
        return vkError(7, 'Permission to perform this action is denied', r);
      const ownerId = Number(p.owner_id ?? user.id);
      if (ownerId < 0 && !user.admin?.includes(-ownerId))
        return vkError(214, 'Access to adding post denied: access to the wall is denied', r);
      if (ownerId > 0 && ownerId !== user.id) return vkError(214, 'Access to adding post denied', r);
      const attachments = p.attachments ? p.attachments.split(',') : [];
      if (!p.message && attachments.length === 0)
        return vkError(100, 'One of the parameters specified was missing or invalid: message is empty', r);
      if ((p.message ?? '').length > 16384) return vkError(100, 'message is too long', r);
      if (attachments.length > 10) return vkError(100, 'too many attachments', r);
      for (const attachment of attachments) {
        const m = /^photo(-?\d+)_(\d+)$/.exec(attachment);
        if (!m || !this.photos.some((ph) => ph.ownerId === Number(m[1]) && ph.id === Number(m[2])))
          return vkError(100, `invalid attachment ${attachment}`, r);
      }
      const earlier = p.guid
        ? this.posts.find((post) => post.ownerId === ownerId && post.guid === p.guid)
        : undefined;
      if (earlier) return { json: { response: { post_id: earlier.id } } };
      const post: FakeVkPost = {
        ownerId,
        id: this.#nextPost++,
        fromGroup: p.from_group === '1',
        message: p.message ?? '',
        attachments,
        guid: p.guid ?? null,
        byUser: user.id,
      };
      this.posts.push(post);
      return { json: { response: { post_id: post.id } } };
    });
  }
}

export async function startFakeVk(options: FakeVkOptions = {}): Promise<FakeVk> {
  return new FakeVk(options).start();
}
