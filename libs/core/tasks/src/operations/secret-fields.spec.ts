import { DEVICE_OPERATIONS, loggableInput, LOG_REDACT_PATHS, SECRET_FIELD_NAMES, secretFieldsOf } from '@apex/capability';
import { runFlowOperation } from './flow-operations';
import { TASK_OPERATIONS } from './task-operations';

describe('secret input fields: marked once, redacted by every logger', () => {
  const catalog = [...DEVICE_OPERATIONS, ...TASK_OPERATIONS];

  it('marks typed text, the clipboard and a flow\'s variables secret', () => {
    const marked = Object.fromEntries(catalog.map((op) => [op.name, secretFieldsOf(op)]).filter(([, fields]) => fields.length > 0));
    expect(marked).toEqual({ input_text: ['text'], set_clipboard: ['text'], run_flow: ['vars'] });
  });

  it('the loggers\' list names every marked field, at any depth a log line puts it', () => {
    for (const name of new Set(catalog.flatMap(secretFieldsOf))) {
      expect(SECRET_FIELD_NAMES).toContain(name);
      expect(LOG_REDACT_PATHS).toEqual(expect.arrayContaining([name, `*.${name}`, `*.*.${name}`]));
    }
  });

  it('an input as logged shows every field but the secret ones', () => {
    expect(loggableInput(runFlowOperation, { yaml: 'name: x', vars: { pw: 'hunter2' }, device: 'd' })).toEqual({ yaml: 'name: x', vars: '[redacted]', device: 'd' });
  });
});
