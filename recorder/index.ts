/** The recorder's public API, for cli/ and runner/. */
export {
  startRecorder,
  BASE_PATH,
  type Recorder,
  type RecorderOptions,
  type RecorderStats,
  type LogKind,
} from './proxy.ts';
export { startReplayServer, type ReplayServer, type ReplayServerOptions } from './replay-server.ts';
export { readCassette, readCassetteHeader, parseCassette, type Cassette } from './cassette-reader.ts';
export { modes, parseMode, type Mode } from './modes.ts';
export { lintCassette, type LintReport } from './lint.ts';
export { scanCassette } from './scan.ts';
export { cassetteToHar, harToCassette, type Har } from './har.ts';
export { CassetteParseError, CassetteSecretError } from './errors.ts';
export { CASSETTE_FORMAT, type Exchange, type CassetteHeader } from './cassette-format.ts';
