import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveDataDir } from './data-dir';

describe('the data directory, found one way (as the README says)', () => {
  it('an explicit one first, then APEX_DATA_DIR, then the config file, then ~/.apex', () => {
    const env = { APEX_DATA_DIR: '/from/env' };
    expect(resolveDataDir({ explicit: '/explicit', configured: '/config' }, env)).toBe('/explicit');
    expect(resolveDataDir({ configured: '/config' }, env)).toBe('/from/env');
    expect(resolveDataDir({ configured: '/config' }, {})).toBe('/config');
    expect(resolveDataDir({}, {})).toBe(join(homedir(), '.apex'));
  });

  it('a blank APEX_DATA_DIR counts as unset (never the working directory); the answer is absolute', () => {
    expect(resolveDataDir({ configured: '/config' }, { APEX_DATA_DIR: '  ' })).toBe('/config');
    expect(resolveDataDir({}, { APEX_DATA_DIR: '' })).toBe(join(homedir(), '.apex'));
    expect(resolveDataDir({ explicit: 'relative/dir' }, {})).toBe(resolve('relative/dir'));
  });
});
