/** An error the client sees (RFC 6749 codes). */
export class OAuthError extends Error {
  override name = 'OAuthError';
  readonly error: string;
  readonly status: number;
  constructor(error: string, message: string, options: { status?: number } = {}) {
    super(message);
    this.error = error;
    this.status = options.status ?? 400;
  }
}
