import { flowFileName } from './flow-file';

describe('flowFileName', () => {
  it('turns a flow name into lower-case dashed words with .yaml', () => {
    expect(flowFileName('From task: open Settings then tap General')).toBe('from-task-open-settings-then-tap-general.yaml');
  });
  it('keeps no leading, trailing or doubled dashes, and bounds the length', () => {
    expect(flowFileName('  «Réglages» — About!  ')).toBe('r-glages-about.yaml');
    expect(flowFileName('x'.repeat(300)).length).toBe(60 + '.yaml'.length);
    expect(flowFileName('a '.repeat(100))).not.toMatch(/-\.yaml$/);
  });
  it('names a nameless flow "flow"', () => {
    expect(flowFileName('!!!')).toBe('flow.yaml');
  });
});
