import { LEAKY_WORDS } from '@apex/errors';
import { buttonFailure, launchFailure, typingFailure, type AgentErrorReply } from './agent-errors';

const reply = (error: string, serverMessage = ''): AgentErrorReply => ({ error, serverMessage });

describe("the agent's errors that mean something on their route", () => {
  it('launch: invalid argument is an app that is not installed', () => {
    const failure = launchFailure(reply('invalid argument', 'FBSOpenApplicationServiceErrorDomain error 1'), 'iphone-a', 'com.x');
    expect(failure?.code).toBe('app_not_found');
    expect(failure?.message).toBe('Device iphone-a has no app "com.x" it can launch.');
    expect(launchFailure(reply('unknown error'), 'iphone-a', 'com.x')).toBeUndefined();
  });

  it.each([
    [
      'session not created, "Cannot launch X application"',
      reply(
        'session not created',
        'Cannot launch com.x application. Make sure the correct bundle identifier has been provided in capabilities and check the device log for possible crash report occurrences',
      ),
    ],
    [
      'the same, wrapped by the automation server in an unknown error',
      reply('unknown error', 'An unknown server-side error occurred while processing the command. Original error: Cannot launch com.x application.'),
    ],
    [
      'the open-application service answering nil',
      reply('unknown error', 'The operation couldn’t be completed. Application info provider (FBSApplicationLibrary) returned nil for "com.x"'),
    ],
    [
      'the open-application service error domain',
      reply('unknown error', 'Error Domain=FBSOpenApplicationServiceErrorDomain Code=4 "The request to open "com.x" failed."'),
    ],
    ['the test framework failing to launch it', reply('unknown error', 'Failed to launch com.x: the app did not start in time')],
    ['an app that is not installed', reply('unknown error', 'The application com.x is not installed on the device')],
  ])('launch: %s is app_not_found', (_form, failed) => {
    const failure = launchFailure(failed, 'iphone-a', 'com.x');
    expect(failure?.code).toBe('app_not_found');
    expect(failure?.retryable).toBe(false);
    expect(failure?.message).toBe('Device iphone-a has no app "com.x" it can launch.');
  });

  it.each([
    ["a session refused for another reason", reply('session not created', "'capabilities' is mandatory to create a new session")],
    ['the automation server failing to reach the agent', reply('session not created', 'Unable to start WebDriverAgent session. Original error: connect ECONNREFUSED')],
    ['"cannot launch" without "application"', reply('unknown error', 'cannot launch: the device is locked')],
    ['any other failure', reply('unknown error', 'Springboard crashed')],
  ])('launch: %s is not app_not_found', (_form, failed) => {
    expect(launchFailure(failed, 'iphone-a', 'com.x')).toBeUndefined();
  });

  it('typing: invalid element state is no focused field', () => {
    expect(typingFailure(reply('invalid element state'), 'iphone-a')?.code).toBe('element_not_found');
    expect(typingFailure(reply('invalid argument'), 'iphone-a')).toBeUndefined();
  });

  it('buttons: "not supported" is a button the device lacks', () => {
    const failure = buttonFailure(reply('unknown error', "The button 'volumeup' is not supported"), 'iphone-a', 'volumeUp');
    expect(failure?.code).toBe('unsupported_operation');
    expect(buttonFailure(reply('unknown error', 'crashed'), 'iphone-a', 'home')).toBeUndefined();
  });

  it('keeps the reply as cause and the words neutral', () => {
    const original = reply('invalid argument', 'XCUIApplication failed');
    const failure = launchFailure(original, 'iphone-a', 'com.x');
    expect(failure?.cause).toBe(original);
    expect(`${failure?.message} ${failure?.hint}`).not.toMatch(LEAKY_WORDS);
  });
});
