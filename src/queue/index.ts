// coderline/queue: runs as BullMQ jobs on Redis, for fleets of workers past one machine.
// BullMQ and ioredis load only through this entry. Importing the main entry keeps the package's code
// one chunk shared by every entry (tsup.config.ts).
import '../index.js';
export { createQueue, type CoderQueue, type EnqueueOptions, type JobHandle, type QueueConfig } from './producer.js';
export { createWorker, type CheckedJob, type CoderWorker, type WorkerConfig, type WorkerRunOptions } from './worker.js';
export { DEFAULT_JOB_LIMITS, type JobLimits } from './job-limits.js';
export type { RefusableOption } from './job-policy.js';
export type { JobData, JobEventsOptions, JobSession, QueueRunOptions, WireResult } from './protocol.js';
