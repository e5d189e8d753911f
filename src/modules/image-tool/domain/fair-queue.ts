import type { UnfinishedStanding } from './image-job-repository.port';

/**
 * The image queue is fair between users: a job's priority (1 runs first, then 2, ...; one priority
 * in the order the jobs came) is its place among its owner's unfinished jobs. So the first job of a
 * user with nothing waiting (priority 1) goes ahead of the tenth job of a user with nine, and waits
 * behind at most one queued job of any other user. A user's own jobs keep their order: a new job
 * never takes a priority below the owner's last unfinished one.
 */
export function queuePriority({ unfinished, highestPriority }: UnfinishedStanding): number {
  return Math.max(unfinished + 1, highestPriority ?? 1);
}
