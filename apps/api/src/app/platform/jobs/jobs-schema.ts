/** The schema pg-boss keeps its queues in (created and migrated by pg-boss itself on start). */
export const JOBS_SCHEMA = 'pgboss';
