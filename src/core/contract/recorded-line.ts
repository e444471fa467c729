// One line of a live session as a recording keeps it: which way it went and its text. The live
// session hands each line over in this shape; the format and its replay are coderline/replay's
// (replay/live-recording.ts), which sits above the core.
export type LineDirection = 'host' | 'cli';

export interface RecordedLine {
  dir: LineDirection;
  line: string;
}
