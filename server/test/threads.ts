import fs from 'node:fs';

/**
 * Each of this process's threads by thread id, from /proc (Linux keeps a nice value per thread): its nice value and
 * the CPU it has used, in clock ticks (user and system).
 */
export function threadStats(): Map<number, { nice: number; cpu: number }> {
  return new Map(
    fs.readdirSync('/proc/self/task').map((tid) => {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The fields after the command's closing parenthesis start at the 3rd (state): utime is the 14th, stime the
      // 15th, nice the 19th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [Number(tid), { nice: Number(fields[16]), cpu: Number(fields[11]) + Number(fields[12]) }];
    }),
  );
}
