import type { Command } from '../cli';
import { devicesCommand } from './devices';
import { emulatorCommand } from './emulator';
import { mcpCommand } from './mcp';
import { serveCommand } from './serve';

export const COMMANDS: Command[] = [
  serveCommand,
  mcpCommand,
  emulatorCommand,
  devicesCommand,
];
