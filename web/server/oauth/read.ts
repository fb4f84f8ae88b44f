import { OAuthError } from './service.ts';

export async function readSmallText(request: Request, maxBytes: number): Promise<string> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes)
    throw new OAuthError('invalid_request', 'The body is too large', { status: 413 });
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw new OAuthError('invalid_request', 'The body is too large', { status: 413 });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
