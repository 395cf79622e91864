/**
 * A server flis starts (the mock, the recorder, the report server, the webhook receiver) that cannot listen is the
 * user's to fix: one usage error that names the address and what to change, chosen by the error's code (never by
 * its wording, and never by who runs it: a port below 1024 refused to an unprivileged user is EACCES).
 */
import { UsageError } from './flis-error.ts';

/** The usage error for a listen failure the user can fix; any other error is returned as it came. */
export function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new UsageError(`port ${port} on ${host} is already in use; give another --port, or 0 for a free one`);
  if (code === 'EACCES' || code === 'EPERM')
    return new UsageError(
      `port ${port} on ${host} needs privileges flis does not have; give a --port above 1023, or 0 for a free one`,
    );
  if (code === 'EADDRNOTAVAIL')
    return new UsageError(`${host} is not an address of this machine; give --host 127.0.0.1`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new UsageError(`${host} is not an address flis can listen on; give --host 127.0.0.1`);
  return err;
}
