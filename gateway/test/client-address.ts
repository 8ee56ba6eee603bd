// Requests from a chosen loopback client address (127.0.0.3, 127.0.0.4...): the gateway sees each as
// a different client, as it would see different visitors.
import http from 'node:http';

/** A request from a chosen loopback address: status, content type and body. */
export function requestFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { localAddress, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
