/**
 * A child process that ends with its parent. Node has no prctl(PR_SET_PDEATHSIG), and the
 * events a child could hear (IPC 'disconnect', the end of a pipe on stdin, EPIPE on a write) are
 * delivered on its main thread's event loop: a trainer inside a minutes-long synchronous step
 * (the SVD, an epoch) hears nothing and outlived a SIGKILLed server by 60 s to 4 min. So a
 * worker thread, whose own event loop stays free, watches the parent pid: when the process is
 * re-parented (the parent died), it tells the main thread (`onParentGone`, for a clean stop when
 * the main thread is free to hear it) and, `graceMs` later, kills the whole process.
 */
import { Worker } from 'node:worker_threads';

/** How often the watchdog reads the parent pid (one getppid() call). */
export const PARENT_CHECK_MS = 200;

// CommonJS source of the watchdog thread: workerData = { parentPid, checkMs, graceMs }.
const WATCHDOG = `
const { parentPort, workerData } = require('node:worker_threads');
const { parentPid, checkMs, graceMs } = workerData;
const timer = setInterval(() => {
  if (process.ppid === parentPid) return;
  clearInterval(timer);
  parentPort.postMessage('parent-gone');
  // SIGKILL: a SIGTERM handler would wait for the busy main thread; the work is abandoned anyway.
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), graceMs);
}, checkMs);
`;

/**
 * Ends this process when `parentPid` (the process that started it, read at its start) is no
 * longer its parent: `onParentGone` at once, the kill `graceMs` later (0: at once). The thread
 * never keeps the process alive.
 */
export function exitWithParent(parentPid: number, options: { graceMs?: number; onParentGone?: () => void } = {}): void {
  const worker = new Worker(WATCHDOG, { eval: true, workerData: { parentPid, checkMs: PARENT_CHECK_MS, graceMs: options.graceMs ?? 0 } });
  worker.on('message', () => options.onParentGone?.());
  worker.unref();
}
