/**
 * What the readiness probe needs besides the database. The server gives it: only the server knows whether its
 * process is stopping, and which migrations this build carries (the handlers sit below the migrations).
 */
export interface HealthInputs {
  /** True once the process has begun to stop: it still finishes what it holds, but should be sent nothing new. */
  stopping: () => boolean;
  /** The newest migration of this build: a database that has not applied it is not ready for this code. */
  newestMigration: string;
}
