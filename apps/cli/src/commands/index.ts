import type { Command } from '../cli';
import { mcpCommand } from './mcp';
import { notYetAvailable } from './not-yet';
import { serveCommand } from './serve';

export const COMMANDS: Command[] = [
  serveCommand,
  mcpCommand,
  notYetAvailable('emulator', 'Run a virtual iPhone that speaks WebDriverAgent', 'apex emulator [--port N] [--profile NAME]'),
  notYetAvailable('devices', 'List the configured devices and their state', 'apex devices [--config FILE] [--json]'),
];
