export * from './job';
export * from './job-scheduler';
export * from './job-scheduler.provider';
export * from './jobs-table';
export * from './schedule-jobs';
export * from './work-loop';
