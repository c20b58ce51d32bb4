import type { DeviceHub } from '@apex/capability';
import { ApexError } from '@apex/errors';
import { hubDeviceView, type DeviceView } from './device-view';
import type {
  DescribeOptions,
  FindIconQuery,
  FindIconResult,
  FindTextQuery,
  FindTextResult,
  PerceptionOptions,
  ScreenDescriptionResult,
  UiTreeOptions,
  UiTreeResult,
} from './types';

/**
 * Finding and describing what is on a device's screen: text (UI tree, then OCR), icons (tree labels, templates,
 * built-in glyphs), a pruned UI tree and a compact description for a model. All coordinates are points.
 */
export class Perception {
  private readonly device: DeviceView;
  private closed = false;

  constructor(
    private readonly hub: DeviceHub,
    private readonly options: PerceptionOptions = {},
  ) {
    this.device = hubDeviceView(hub);
  }

  async findText(deviceId: string, query: FindTextQuery): Promise<FindTextResult> {
    void deviceId;
    void query;
    throw notYet('findText');
  }

  async findIcon(deviceId: string, query: FindIconQuery): Promise<FindIconResult> {
    void deviceId;
    void query;
    throw notYet('findIcon');
  }

  async getUiTree(deviceId: string, options: UiTreeOptions = {}): Promise<UiTreeResult> {
    void deviceId;
    void options;
    throw notYet('getUiTree');
  }

  async describeScreen(deviceId: string, options: DescribeOptions = {}): Promise<ScreenDescriptionResult> {
    void deviceId;
    void options;
    throw notYet('describeScreen');
  }

  /** Stops the OCR workers. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
  }
}

function notYet(what: string): ApexError {
  return new ApexError('unsupported_operation', `${what} is not available yet.`);
}
