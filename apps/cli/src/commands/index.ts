import type { Command } from '../cli';
import { emulatorCommand } from './emulator';
import { mcpCommand } from './mcp';
import { notYetAvailable } from './not-yet';
import { serveCommand } from './serve';

export const COMMANDS: Command[] = [
  serveCommand,
  mcpCommand,
  emulatorCommand,
  notYetAvailable('devices', 'List the configured devices and their state', 'apex devices [--config FILE] [--json]'),
];
