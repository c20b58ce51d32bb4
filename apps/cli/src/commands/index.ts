import type { Command } from '../cli';

/** What `apex serve` and `apex mcp` run on when no configuration is given. */
const WITHOUT_CONFIG =
  'Without --config (or APEX_CONFIG) it runs two virtual phones, nothing to install:\n' +
  '  iphone-virtual   a virtual iPhone (the default device when a call names none)\n' +
  '  android-virtual  a virtual Android 14 phone\n' +
  'and looks for the phones of this machine (booted simulators, USB iPhones, Android phones); --no-virtual\n' +
  'leaves out the virtual ones.';

// Each command's module (and the runtime, drivers and servers it pulls in) is required only when that command
// runs, so `apex --help` and usage errors stay fast.

export const COMMANDS: Command[] = [
  {
    name: 'serve',
    summary: 'Run the REST API (with MCP at /mcp)',
    usage: 'apex serve [--port N] [--host H] [--config FILE] [--toolsets a,b|default|all] [--no-virtual]',
    details: WITHOUT_CONFIG,
    load: () => (require('./serve') as typeof import('./serve')).serveCommand,
  },
  {
    name: 'mcp',
    summary: 'Run the MCP server over stdio, for an MCP client',
    usage: 'apex mcp [--config FILE] [--toolsets a,b|default|all] [--no-virtual]',
    details: WITHOUT_CONFIG,
    load: () => (require('./mcp') as typeof import('./mcp')).mcpCommand,
  },
  {
    name: 'emulator',
    summary: 'Run a virtual iPhone (or Android phone) on a local port, for Apex or another automation client to drive',
    usage: 'apex emulator [--platform ios|android] [--port N] [--mjpeg-port N] [--host H [--allow-remote]] [--profile iphone-15|iphone-15-plus|iphone-se|pixel-8|small-phone] [--appearance light|dark] [--faults]',
    load: () => (require('./emulator') as typeof import('./emulator')).emulatorCommand,
  },
  {
    name: 'run',
    summary: 'Replay a flow file on a device, without a model',
    usage: 'apex run FILE [--device D] [--var name=value ...] [--heal-planner offline|openai|anthropic] [--config FILE]',
    load: () => (require('./run') as typeof import('./run')).runCommand,
  },
  {
    name: 'devices',
    summary: 'List the configured devices and their state (--discover: and the phones found on this machine)',
    usage: 'apex devices [--config FILE] [--discover] [--no-virtual] [--json]',
    load: () => (require('./devices') as typeof import('./devices')).devicesCommand,
  },
  {
    name: 'doctor',
    summary: 'Check this machine for what Apex needs to drive the phones it finds',
    usage: 'apex doctor [--config FILE] [--json]',
    load: () => (require('./doctor') as typeof import('./doctor')).doctorCommand,
  },
];
