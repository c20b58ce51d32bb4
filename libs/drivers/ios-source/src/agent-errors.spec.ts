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
