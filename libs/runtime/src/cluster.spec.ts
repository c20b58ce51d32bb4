import { reportAsListed } from './cluster';

describe('a phone held elsewhere, as its holder reported it', () => {
  const report = { state: 'offline' as const, at: 100_000, node: 'http://127.0.0.1:4100' };

  it('is listed in the reported state, with nothing to say while the report is at most a lease period old', () => {
    expect(reportAsListed(report, 100_000, 15_000)).toEqual({ state: 'offline' });
    expect(reportAsListed(report, 115_000, 15_000)).toEqual({ state: 'offline' });
  });

  it('says how old the report is, and by which node, once it is older than a lease period', () => {
    expect(reportAsListed(report, 140_200, 15_000)).toEqual({
      state: 'offline',
      note: 'as node http://127.0.0.1:4100 reported it 40 s ago; it may have changed since',
    });
  });
});
