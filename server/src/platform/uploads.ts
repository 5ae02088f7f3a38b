import { type Readable, Transform } from 'node:stream';
import { AppError } from './errors';

/** The largest spreadsheet accepted: 100,000 rows of 30 columns is about 10 MB. */
export const MAX_UPLOAD_BYTES = 60 * 1024 * 1024;

/** Passes a stream through, failing it once more than `max` bytes have gone by. */
export function limitBytes(input: Readable, max: number): Readable {
  let seen = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max)
        callback(new AppError('bad_request', `The file is larger than ${Math.round(max / 1048576)} MB`));
      else callback(null, chunk);
    },
  });
  input.on('error', (err) => limiter.destroy(err));
  return input.pipe(limiter);
}

export function isStream(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function';
}
