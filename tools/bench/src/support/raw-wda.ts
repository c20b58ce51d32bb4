import { rawWda as rawClient, type RawReply } from '@apex/testing';

/**
 * The floor: the test kit's bare keep-alive HTTP client on one socket, the way any client would call the phone's
 * WDA face (or the REST API), with no validation or parsing beyond reading the body. A non-200 answer rejects, so
 * a failing call is counted as an error, never timed as a success.
 */
export interface RawWda {
  get(path: string): Promise<string>;
  post(path: string, body: unknown): Promise<string>;
  close(): void;
}

export function rawWda(url: string): RawWda {
  const client = rawClient(url, { maxSockets: 1 });
  const ok = (method: string, path: string) => (reply: RawReply) => {
    if (reply.status !== 200) throw new Error(`${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 200)}`);
    return reply.text;
  };
  return {
    get: (path) => client.get(path).then(ok('GET', path)),
    post: (path, body) => client.post(path, body).then(ok('POST', path)),
    close: () => client.close(),
  };
}
