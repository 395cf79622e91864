/**
 * The recorder's modes, a closed set. Each mode is a named policy: whether the
 * cassette is consulted first, what happens to a request it has no answer for
 * (MSW's "unhandled request" idea), and how the cassette file is written.
 */
import { oneOf } from '../errors/flis-error.ts';

export const modes = ['record', 'new', 'replay', 'passthrough'] as const;
export type Mode = (typeof modes)[number];

/** What a request the cassette cannot answer leads to. */
export const missPolicies = ['forward-and-record', 'error'] as const;
export type MissPolicy = (typeof missPolicies)[number];

export interface ModePolicy {
  /** Answer from the cassette when it has a match. */
  replayFirst: boolean;
  /** Used only when replayFirst: what a miss does. */
  onMiss: MissPolicy;
  /** 'truncate' starts a new cassette, 'append' adds to it, 'none' writes nothing. */
  write: 'truncate' | 'append' | 'none';
  /** Whether the upstream is ever contacted (replay needs no upstream at all). */
  needsUpstream: boolean;
}

export const modePolicies: Record<Mode, ModePolicy> = {
  record: { replayFirst: false, onMiss: 'forward-and-record', write: 'truncate', needsUpstream: true },
  new: { replayFirst: true, onMiss: 'forward-and-record', write: 'append', needsUpstream: true },
  replay: { replayFirst: true, onMiss: 'error', write: 'none', needsUpstream: false },
  passthrough: { replayFirst: false, onMiss: 'forward-and-record', write: 'none', needsUpstream: true },
};

export function parseMode(value: string): Mode {
  return oneOf('--mode', value, modes);
}
