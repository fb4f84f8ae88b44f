/**
 * A fake platform's engagement figures, in the platform's own field names (`like_count`,
 * `favourites_count`, `viewCount`...), so tests change them between two collections and the fake
 * serves them from the endpoints the platform documents (contract section H). A post without
 * figures answers zeros; a deleted post answers the platform's "not found".
 */
export class FakeFigures<Name extends string> {
  readonly #byPost = new Map<string, Partial<Record<Name, number>>>();
  readonly #deleted = new Set<string>();
  /** The account's followers (or subscribers, members), as the profile endpoint reports them. */
  followers = 0;

  /** Adds to (or replaces) the figures of one post. */
  set(postId: string, figures: Partial<Record<Name, number>>): void {
    this.#byPost.set(postId, { ...this.#byPost.get(postId), ...figures });
  }

  /** One figure of a post, 0 when never set. */
  of(postId: string, name: Name): number {
    return this.#byPost.get(postId)?.[name] ?? 0;
  }

  /** The post was deleted on the platform: its figures answer "not found" from now on. */
  delete(postId: string): void {
    this.#deleted.add(postId);
  }

  isDeleted(postId: string): boolean {
    return this.#deleted.has(postId);
  }
}
