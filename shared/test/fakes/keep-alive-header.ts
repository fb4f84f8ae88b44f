import { Agent, get } from 'node:http';

/** The `Keep-Alive` header a server answers `url` with (read by node:http: fetch hides hop-by-hop headers). */
export function keepAliveHeader(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: new Agent({ keepAlive: true }) }, (response) => {
      response.resume();
      response.on('end', () => {
        request.destroy();
        resolve(String(response.headers['keep-alive']));
      });
    });
    request.on('error', reject);
  });
}
