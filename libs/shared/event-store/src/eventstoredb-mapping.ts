import {
  ANY,
  ErrorType,
  NO_STREAM,
  STREAM_EXISTS,
  isCommandError,
  type AppendExpectedRevision,
  type Position,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import type { ExpectedRevision, RecordedEvent } from './event-store';

/**
 * How the EventStoreDB adapter maps the client's values onto the port's: expected revisions,
 * positions (`<commit>/<prepare>` of the transaction log, each zero-padded to 20 digits, so that
 * they order as strings), recorded events, and the errors and events it treats apart.
 */

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

export const formatPosition = ({ commit, prepare }: Position) =>
  `${commit.toString().padStart(20, '0')}/${prepare.toString().padStart(20, '0')}`;

const POSITION = /^(\d{20})\/(\d{20})$/;

export function parsePosition(position: string): Position {
  const match = POSITION.exec(position);
  if (!match) throw new TypeError(`Not an EventStoreDB position: "${position}"`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

export const isSystemEvent = (event: { type: string; streamId: string }) =>
  event.type.startsWith('$') || event.streamId.startsWith('$');

export const isStreamNotFound = (error: unknown) =>
  error instanceof Error && isCommandError(error) && error.type === ErrorType.STREAM_NOT_FOUND;

export function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  if (event.position === undefined) {
    throw new Error(
      `EventStoreDB returned event ${event.id} without a log position (server older than 22.6?)`,
    );
  }
  const metadata = event.metadata;
  return {
    id: event.id,
    streamName: event.streamId,
    type: event.type,
    data: event.data,
    metadata:
      metadata !== null &&
      typeof metadata === 'object' &&
      !Array.isArray(metadata) &&
      !(metadata instanceof Uint8Array)
        ? (metadata as Record<string, unknown>)
        : {},
    revision: event.revision,
    position: formatPosition(event.position),
    createdAt: event.created,
  };
}
