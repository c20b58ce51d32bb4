import type { Command } from '../cli';
import { mcpCommand } from './mcp';
import { notYetAvailable } from './not-yet';

export const COMMANDS: Command[] = [
  notYetAvailable('serve', 'Run the REST API (with MCP at /mcp)', 'apex serve [--port N] [--host H] [--config FILE]'),
  mcpCommand,
  notYetAvailable('emulator', 'Run a virtual iPhone that speaks WebDriverAgent', 'apex emulator [--port N] [--profile NAME]'),
  notYetAvailable('devices', 'List the configured devices and their state', 'apex devices [--config FILE] [--json]'),
];
