import { answerAlert } from './alerts';

const LOCATION = ['Allow Once', 'Allow While Using App', "Don't Allow"];

describe('answering an alert in the way', () => {
  it('taps what the goal names', () => {
    expect(answerAlert('open Maps then tap Allow While Using App', LOCATION)?.button).toBe('Allow While Using App');
    expect(answerAlert("open Maps, then don't allow", LOCATION)?.button).toBe("Don't Allow");
  });

  it('refuses when the goal does not need the permission', () => {
    expect(answerAlert('Please open Maps', LOCATION)).toEqual({ button: "Don't Allow", why: 'the least permissive choice that lets the goal continue' });
    expect(answerAlert('open Maps', ['OK'])?.button).toBe('OK');
  });

  it('grants the narrowest permission when the goal needs it', () => {
    expect(answerAlert('open Maps and show my location', LOCATION)?.button).toBe('Allow Once');
    expect(answerAlert('allow', LOCATION)?.button).toBe('Allow Once');
    expect(answerAlert('deny', LOCATION)?.button).toBe("Don't Allow");
  });

  it("answers Android's permission dialog in its own words and in iOS's", () => {
    const android = ['While using the app', 'Only this time', "Don't allow"];
    expect(answerAlert('allow Maps only this time', android)?.button).toBe('Only this time');
    expect(answerAlert('open Maps and allow once', android)?.button).toBe('Only this time');
    expect(answerAlert('open Maps, then allow while using the app', android)?.button).toBe('While using the app');
    expect(answerAlert('allow Maps only this time', LOCATION)?.button).toBe('Allow Once');
    expect(answerAlert('open Maps and show my location', android)?.button).toBe('Only this time');
    expect(answerAlert('open Maps', android)?.button).toBe("Don't allow");
  });

  it('reads a typographic apostrophe as a plain one (Android writes "Don’t allow")', () => {
    const android = ['While using the app', 'Only this time', 'Don’t allow'];
    expect(answerAlert('open Maps', android)?.button).toBe('Don’t allow');
    expect(answerAlert('open Maps, then dismiss the alert', android)?.button).toBe('Don’t allow');
    expect(answerAlert("open Maps, then don't allow", android)?.button).toBe('Don’t allow');
  });

  it('has no answer when no button is a safe one', () => {
    expect(answerAlert('open Mail', ['Delete Everything', 'Erase'])).toBeUndefined();
  });
});
