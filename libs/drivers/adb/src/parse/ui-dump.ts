/**
 * `uiautomator dump /dev/tty` writes the XML and then its own line ("UI hierchary dumped to: /dev/tty", sic);
 * when the screen does not settle it writes only "ERROR: could not get idle state." (AOSP cmds/uiautomator
 * DumpCommand). The XML, or undefined when there is none.
 */
export function readUiDump(output: string): string | undefined {
  const start = output.indexOf('<?xml');
  const end = output.lastIndexOf('</hierarchy>');
  if (start < 0 || end < start) return undefined;
  return output.slice(start, end + '</hierarchy>'.length);
}
