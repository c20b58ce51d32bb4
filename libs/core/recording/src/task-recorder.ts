import type { OperationContext } from '@apex/capability';
import { RECORDING_FPS, RECORDING_SCALE, RECORDING_SECONDS } from './limits';
import { recordingUrl } from './operations';
import type { RecordingService } from './recording-service';

/**
 * The recorder a task that asks for it (`record: true`) uses: the device's recording at the default rate and
 * size, for at most `maxSeconds` (the task's timeout, within the recording bounds), answered as the task links it.
 */
export function taskRecorder(recordings: () => RecordingService, ctx: OperationContext) {
  return {
    async start(deviceId: string, maxSeconds: number): Promise<void> {
      const seconds = Math.min(RECORDING_SECONDS.max, Math.max(RECORDING_SECONDS.min, Math.ceil(maxSeconds)));
      await recordings().start(ctx, deviceId, { fps: RECORDING_FPS.default, scale: RECORDING_SCALE.default, maxSeconds: seconds });
    },
    async stop(deviceId: string): Promise<{ id: string; url: string; seconds: number }> {
      const { id, seconds } = await recordings().stop(deviceId);
      return { id, url: recordingUrl(id), seconds };
    },
  };
}
