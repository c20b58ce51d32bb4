import { isApexError } from '@apex/errors';
import { redactedUrl, resolveEndpoint } from './credentials';

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

describe('device cloud credentials', () => {
  it('takes them out of the address userinfo into the Authorization header', () => {
    expect(resolveEndpoint('https://alice:s%40cret@hub.cloud.example/wd/hub', {}, {})).toEqual({
      url: 'https://hub.cloud.example/wd/hub',
      authorization: basic('alice', 's@cret'),
    });
  });

  it('reads them from the named environment variables', () => {
    const env = { CLOUD_USER: 'bob', CLOUD_KEY: 'k3y' };
    expect(resolveEndpoint('https://hub.cloud.example/wd/hub', { usernameEnv: 'CLOUD_USER', keyEnv: 'CLOUD_KEY' }, env)).toEqual({
      url: 'https://hub.cloud.example/wd/hub',
      authorization: basic('bob', 'k3y'),
    });
  });

  it('needs none for a lab on the network, and names a missing variable without any value', () => {
    expect(resolveEndpoint('http://127.0.0.1:4444', {}, {})).toEqual({ url: 'http://127.0.0.1:4444' });
    let error: unknown;
    try {
      resolveEndpoint('https://hub.cloud.example', { usernameEnv: 'CLOUD_USER', keyEnv: 'CLOUD_KEY' }, { CLOUD_USER: 'bob' });
    } catch (caught) {
      error = caught;
    }
    expect(isApexError(error) && error.code).toBe('invalid_argument');
    expect(String((error as Error).message)).toMatch(/CLOUD_KEY/);
    expect(String((error as Error).message)).not.toMatch(/bob/);
  });

  it('shows addresses without userinfo', () => {
    expect(redactedUrl('https://alice:secret@hub.cloud.example/wd/hub')).toBe('https://hub.cloud.example/wd/hub');
  });
});
