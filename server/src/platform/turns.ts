import { AppError } from './errors';

/**
 * A fixed number of turns and a line of a bounded length: `take` joins the line (or is refused with 503 `busy`
 * beyond it), `release` ends a turn or leaves the line. The imports' slots (platform/uploads.ts) and the bulk
 * requests' turn (platform/signinFirst.ts) are two of them.
 */
export class Turns {
  private running = 0;
  private readonly line: Array<() => void> = [];
  constructor(
    private readonly size: number,
    private readonly waiting: number,
    private readonly busy: string,
  ) {}

  take(): { ready: Promise<void>; release: () => void } {
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    let go = () => {};
    let fail = (_err: Error) => {};
    const ready = new Promise<void>((resolve, reject) => {
      go = resolve;
      fail = reject;
    });
    const start = () => {
      state = 'running';
      this.running++;
      go();
    };
    if (this.running < this.size) start();
    else if (this.line.length < this.waiting) this.line.push(start);
    else {
      state = 'done';
      fail(new AppError('busy', this.busy));
    }
    const release = () => {
      if (state === 'running') {
        this.running--;
        this.line.shift()?.();
      } else if (state === 'waiting') {
        this.line.splice(this.line.indexOf(start), 1);
        fail(new AppError('bad_request', 'The request was cancelled'));
      }
      state = 'done';
    };
    return { ready, release };
  }
}
