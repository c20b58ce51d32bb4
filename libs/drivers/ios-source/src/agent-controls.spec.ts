import { alertFailure, alertInfoOf, keyboardFailure, pasteboardText, rotationFailure, urlFailure } from './agent-controls';

const reply = (error: string, serverMessage = '') => ({ error, serverMessage });

describe('the device controls’ error envelopes', () => {
  it('a URL the device cannot open is invalid_argument naming its scheme; other errors are left alone', () => {
    const error = urlFailure(reply('unknown error', 'Error Domain=NSOSStatusErrorDomain Code=-10814'), 'd1', 'nosuch://x');
    expect(error).toMatchObject({ code: 'invalid_argument' });
    expect(error?.message).toContain('"nosuch:"');
    expect(error?.message).not.toContain('NSOSStatus');
    expect(urlFailure(reply('no such window'), 'd1', 'https://a')).toBeUndefined();
  });

  it('a refused rotation is device_error with a hint', () => {
    const error = rotationFailure(reply('unknown error', 'Unable To Rotate Device'), 'd1', 'landscape');
    expect(error).toMatchObject({ code: 'device_error' });
    expect(error?.hint).toMatch(/orientation/);
    expect(rotationFailure(reply('unknown error', 'something else'), 'd1', 'landscape')).toBeUndefined();
  });

  it('a keyboard that stays is device_error; alerts: none shown or an unknown label is element_not_found', () => {
    expect(keyboardFailure(reply('invalid element state'), 'd1')).toMatchObject({ code: 'device_error' });
    expect(keyboardFailure(reply('unknown error'), 'd1')).toBeUndefined();
    expect(alertFailure(reply('no such alert', 'No alert is open'), 'd1')).toMatchObject({ code: 'element_not_found' });
    expect(alertFailure(reply('invalid element state'), 'd1', 'Later')?.message).toContain('"Later"');
    expect(alertFailure(reply('invalid element state'), 'd1')).toBeUndefined();
  });

  it('reads the alert text as title and message', () => {
    expect(alertInfoOf('Title\nLine 1\nLine 2', ['A', 3, 'B'])).toEqual({ title: 'Title', text: 'Line 1\nLine 2', buttons: ['A', 'B'] });
    expect(alertInfoOf('Only a title', [])).toEqual({ title: 'Only a title', buttons: [] });
    expect(alertInfoOf(null, null)).toEqual({ buttons: [] });
  });

  it('carries the pasteboard text as base64 both ways', () => {
    expect(pasteboardText.decode(pasteboardText.encode('ü ✓'))).toBe('ü ✓');
    expect(pasteboardText.decode(null)).toBe('');
  });
});
