import { PlatformError } from '../../errors.ts';
import type { OptionChoice } from '../manifest.ts';
import { decodeEntities, type WordPressApi } from './api.ts';

export type Taxonomy = 'categories' | 'tags';

interface Term {
  id?: unknown;
  name?: unknown;
}

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/**
 * The ids of categories or tags by name, in order: each is looked up (`?search=`, names compared
 * without regard to case) and created when the site has none of that name. WordPress answers a
 * create that races another with `term_exists` and the existing id, which is used as is.
 */
export async function termIds(
  api: WordPressApi,
  taxonomy: Taxonomy,
  names: readonly string[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const found = await findTerm(api, taxonomy, name);
    ids.push(found ?? (await createTerm(api, taxonomy, name)));
  }
  return [...new Set(ids)];
}

async function findTerm(api: WordPressApi, taxonomy: Taxonomy, name: string): Promise<number | undefined> {
  const { body } = await api.request<Term[]>({
    method: 'GET',
    route: `/wp/v2/${taxonomy}`,
    query: { search: name, per_page: '100', _fields: 'id,name' },
    operation: 'read',
  });
  if (!Array.isArray(body)) return undefined;
  const match = body.find(
    (term) =>
      typeof term.id === 'number' &&
      typeof term.name === 'string' &&
      sameName(decodeEntities(term.name), name),
  );
  return match?.id as number | undefined;
}

async function createTerm(api: WordPressApi, taxonomy: Taxonomy, name: string): Promise<number> {
  const request = {
    method: 'POST',
    route: `/wp/v2/${taxonomy}`,
    json: { name },
    operation: 'terms',
  } as const;
  const answer = await api.answer(request);
  const body = answer.body as (Term & { code?: unknown; data?: { term_id?: unknown } }) | undefined;
  if (answer.status === 201 || answer.status === 200) {
    if (typeof body?.id === 'number') return body.id;
    throw new PlatformError('platform_unavailable', `${api.host} answered without the new term's id`);
  }
  // A create that raced another (or a name WordPress normalises to an existing one) answers
  // `term_exists` with the id of the term already there.
  const existing = Number(body?.data?.term_id);
  if (body?.code === 'term_exists' && Number.isSafeInteger(existing) && existing > 0) return existing;
  throw api.error(answer, 'terms');
}

/** The site's categories or tags, most used first, as composer choices (value: the name). */
export async function termChoices(api: WordPressApi, taxonomy: Taxonomy): Promise<OptionChoice[]> {
  const { body } = await api.request<Term[]>({
    method: 'GET',
    route: `/wp/v2/${taxonomy}`,
    query: { per_page: '100', orderby: 'count', order: 'desc', _fields: 'id,name' },
    operation: 'read',
  });
  if (!Array.isArray(body)) return [];
  return body.flatMap((term) => {
    if (typeof term.name !== 'string') return [];
    const name = decodeEntities(term.name).slice(0, 200);
    return name ? [{ value: name, label: name }] : [];
  });
}
