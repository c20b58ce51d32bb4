export * from './limits';
export * from './frame-pacer';
export * from './jpeg-size';
export { encoderBinary } from './encoder-binary';
export { Mp4Encoder, type Mp4EncoderOptions } from './mp4-encoder';
export { END_REASONS, videoSize, type EndReason, type FinishedRecording, type RecordingSettings } from './recording';
export * from './recording-service';
export * from './operations';
export { taskRecorder } from './task-recorder';
